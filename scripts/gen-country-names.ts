/**
 * Generates src/engine/lines/country-names.generated.ts: the destination country names, upper-case,
 * in the six country-name languages of /address/lines, from Node's built-in CLDR data
 * (Intl.DisplayNames, type region). The engine never calls Intl at run time: the table is pinned
 * in the project, so an ICU/CLDR upgrade of Node cannot change the output silently.
 *
 *   node scripts/gen-country-names.ts           # writes the table, prints the check report
 *   node scripts/gen-country-names.ts --check   # exits 1 if the committed table is out of date
 *
 * The generated names are checked against ../shared/data/country-names/cldr-region-names.json
 * (CLDR 48 via Node 20); differences are printed, they do not stop the run.
 *
 * Decision (docs/recipient-block.md, "Country names"): the German CLDR name of GB,
 * "VEREINIGTES KÖNIGREICH" (22 characters), is longer than the smallest maxcharsperline (20).
 * The table keeps the CLDR name and carries a SHORT form, used only when the long one does not fit
 * the line: "GROSSBRITANNIEN". Every name longer than 20 characters must have a short form, or the
 * script fails.
 *
 * The same file carries COUNTRY_DISPLAY_NAMES for the address lookup (src/engine/lookup): the
 * CLDR names as written (title case), for every ISO 3166-1 code plus XK (GeoNames' Kosovo), in the
 * languages of DISPLAY_LANGS. The lookup uses them for the `country` key in the `locale`
 * language and to recognise a country name typed in a query; it never calls Intl either.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ISO_3166_1_ALPHA2, SUPPORTED_DESTINATIONS } from '../src/engine/lines/iso3166.ts';
import { sharedDataPath } from '../src/config/shared-data.ts';

/** Request language → CLDR locale. `pt` means European Portuguese (issue 2). */
const LANGS = { en: 'en', de: 'de', fr: 'fr', es: 'es', pt: 'pt-PT', nl: 'nl' } as const;
type Lang = keyof typeof LANGS;

/**
 * Lookup languages (request language → CLDR locale): first the official languages of the
 * supported destinations (the lookup recognises typed country names in these), then regional
 * and widely requested languages (used for the `country` key only). `pt` is European Portuguese
 * here too; `no` is Norwegian Bokmål.
 */
const DISPLAY_LANGS: Record<string, string> = {
  en: 'en', de: 'de', fr: 'fr', es: 'es', it: 'it', nl: 'nl', pt: 'pt-PT', da: 'da', sv: 'sv', fi: 'fi',
  pl: 'pl', cs: 'cs', sk: 'sk', hu: 'hu', ro: 'ro', hr: 'hr', sl: 'sl', et: 'et', lv: 'lv', lt: 'lt',
  bg: 'bg', el: 'el', mt: 'mt', ga: 'ga',
  ca: 'ca', eu: 'eu', gl: 'gl', lb: 'lb', rm: 'rm', is: 'is', fo: 'fo', nb: 'nb', no: 'nb', sq: 'sq',
  sr: 'sr', bs: 'bs', mk: 'mk', uk: 'uk', ru: 'ru', tr: 'tr', ar: 'ar', he: 'he', hi: 'hi', zh: 'zh',
  ja: 'ja', ko: 'ko',
};
/** Every assigned code, plus XK (Kosovo), which GeoNames and so the city layer use. */
const DISPLAY_CODES = [...ISO_3166_1_ALPHA2, 'XK'].sort();

const MIN_LINE = 20;
/** Short forms for names longer than MIN_LINE, per language (postal usage, upper case). */
const SHORT: Partial<Record<Lang, Record<string, string>>> = {
  de: { GB: 'GROSSBRITANNIEN' },
};

const OUT = fileURLToPath(new URL('../src/engine/lines/country-names.generated.ts', import.meta.url));

function generate(): { text: string; problems: string[]; diffs: string[] } {
  const problems: string[] = [];
  const names: Record<string, Record<string, string>> = {};
  const short: Record<string, Record<string, string>> = {};
  for (const [lang, locale] of Object.entries(LANGS) as [Lang, string][]) {
    const dn = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
    const row: Record<string, string> = {};
    for (const cc of SUPPORTED_DESTINATIONS) {
      const name = dn.of(cc);
      if (!name) {
        problems.push(`${lang}/${cc}: no CLDR name`);
        continue;
      }
      const upper = name.toLocaleUpperCase(locale);
      row[cc] = upper;
      if (upper.length > MIN_LINE) {
        const s = SHORT[lang]?.[cc];
        if (!s) problems.push(`${lang}/${cc}: "${upper}" is ${upper.length} > ${MIN_LINE} chars and has no short form`);
        else (short[lang] ??= {})[cc] = s;
      }
    }
    names[lang] = row;
  }
  const display: Record<string, Record<string, string>> = {};
  for (const [lang, locale] of Object.entries(DISPLAY_LANGS)) {
    const dn = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
    const row: Record<string, string> = {};
    for (const cc of DISPLAY_CODES) {
      const name = dn.of(cc);
      if (name?.includes('|')) problems.push(`display ${lang}/${cc}: "${name}" holds the separator |`);
      else if (name) row[cc] = name;
      else if (lang === 'en') problems.push(`display en/${cc}: no CLDR name`);
    }
    display[lang] = row;
  }
  const diffs = [...compareWithShared(names), ...compareDisplayWithShared(display)];
  const meta = `Node ${process.version}, ICU ${process.versions.icu}, CLDR ${process.versions.cldr ?? '?'}`;
  const text =
    `// GENERATED by scripts/gen-country-names.ts from Intl.DisplayNames (${meta}). Do not edit.\n` +
    `// Upper case with the language's locale; pt = European Portuguese (pt-PT).\n` +
    `export const COUNTRY_NAME_LANGUAGES = ${JSON.stringify(Object.keys(LANGS))} as const;\n` +
    `export type CountryNameLanguage = (typeof COUNTRY_NAME_LANGUAGES)[number];\n\n` +
    `/** Destination name on the country line, upper case, per language. */\n` +
    `export const COUNTRY_NAMES: Readonly<Record<CountryNameLanguage, Readonly<Record<string, string>>>> = ${JSON.stringify(names, null, 2)};\n\n` +
    `/** Short forms, used only when the name does not fit maxcharsperline. */\n` +
    `export const COUNTRY_NAMES_SHORT: Readonly<Partial<Record<CountryNameLanguage, Readonly<Record<string, string>>>>> = ${JSON.stringify(short, null, 2)};\n\n` +
    `/**\n * Address lookup: CLDR country names as written (title case) for every ISO 3166-1 code + XK.\n` +
    ` * Compact, because every worker thread parses this module: per language, the names in the order\n` +
    ` * of COUNTRY_DISPLAY_CODES joined by "|" ("" where CLDR has no name).\n */\n` +
    `export const COUNTRY_DISPLAY_CODES = ${JSON.stringify(DISPLAY_CODES.join(' '))};\n` +
    `export const COUNTRY_DISPLAY_NAMES: Readonly<Record<string, string>> = {\n` +
    Object.entries(display).map(([l, row]) => `  ${JSON.stringify(l)}: ${JSON.stringify(DISPLAY_CODES.map((cc) => row[cc] ?? '').join('|'))},\n`).join('') +
    `};\n`;
  return { text, problems, diffs };
}

function compareWithShared(names: Record<string, Record<string, string>>): string[] {
  const file = sharedDataPath('country-names', 'cldr-region-names.json');
  if (!existsSync(file)) return [`(not checked: ${file} is absent)`];
  const ref = JSON.parse(readFileSync(file, 'utf8')) as {
    countries: Record<string, Record<string, { upper: string }>>;
  };
  const diffs: string[] = [];
  for (const [lang, locale] of Object.entries(LANGS)) {
    for (const cc of SUPPORTED_DESTINATIONS) {
      const want = ref.countries[cc]?.[locale]?.upper;
      const got = names[lang]?.[cc];
      if (want !== got) diffs.push(`${lang}(${locale})/${cc}: generated "${got}", shared reference "${want}"`);
    }
  }
  return diffs;
}

function compareDisplayWithShared(display: Record<string, Record<string, string>>): string[] {
  const file = sharedDataPath('country-names', 'cldr-region-names.json');
  if (!existsSync(file)) return [];
  const ref = JSON.parse(readFileSync(file, 'utf8')) as {
    countries: Record<string, Record<string, { name: string }>>;
  };
  const diffs: string[] = [];
  for (const [cc, byLocale] of Object.entries(ref.countries)) {
    for (const [lang, locale] of Object.entries(DISPLAY_LANGS)) {
      const want = byLocale[locale]?.name;
      if (want === undefined) continue;
      const got = display[lang]?.[cc];
      if (want !== got) diffs.push(`display ${lang}(${locale})/${cc}: generated "${got}", shared reference "${want}"`);
    }
  }
  return diffs;
}

const { text, problems, diffs } = generate();
console.log(`country names: ${SUPPORTED_DESTINATIONS.length} destinations × ${Object.keys(LANGS).length} languages (upper case); ${DISPLAY_CODES.length} codes × ${Object.keys(DISPLAY_LANGS).length} languages (display)`);
console.log(diffs.length === 0 ? 'check against shared cldr-region-names.json: identical' : `differences from shared cldr-region-names.json (${diffs.length}):\n  ${diffs.join('\n  ')}`);
if (problems.length) {
  console.error(`problems:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
if (process.argv.includes('--check')) {
  const current = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
  if (current !== text) {
    console.error(`${OUT} is out of date; run node scripts/gen-country-names.ts`);
    process.exit(1);
  }
  console.log('committed table is up to date');
} else {
  writeFileSync(OUT, text);
  console.log(`wrote ${OUT}`);
}
