/**
 * Generates src/engine/lookup/named-place/street-words.generated.ts: for each street-type word
 * (and each compound suffix such as `…strasse`, `…vej`), how likely each destination is given
 * that word, P(country | word), from three offline sources:
 *
 *  - the street-type words of @mapbox/geocoder-abbreviations (`way` groups, full forms and
 *    abbreviations), each tied to its language;
 *  - the languages street names are written in per country (the table of
 *    src/engine/lookup/normalize/abbreviations.ts; libaddressinput's `languages` names only a few
 *    destinations), giving P(word | country) = Σ_lang P(lang | country) · P(word | lang), with
 *    the country's languages equally likely;
 *  - the distinct street names of the extracts in ../shared/data (OSM Copenhagen, Helsinki,
 *    Liechtenstein, Malta, Vancouver, Krems, Bayreuth; BANO France), counting in how many of a
 *    country's streets each word occurs. P(word | language) is pooled over the counted countries
 *    that write the language, smoothed towards the package's say-so (β pseudo-streets at P_LANG
 *    for a word of the language, P_BORROW for any other), so English `calle` (the package lists
 *    it for the US) weighs what Vancouver's streets say; a counted country's own streets then
 *    refine it: P(word | country) = (n + β · P(word | its languages)) / (N + β).
 *
 * Then Bayes with a uniform prior over the destinations: P(c | w) = P(w | c) / Σ P(w | c').
 * Countries under MIN_P are left out; the table is small and committed. Re-run after changing a
 * source:
 *
 *   node scripts/gen-street-word-countries.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PROJECT_ROOT, sharedDataPath } from '../src/config/shared-data.ts';
import { splitCsv } from '../src/data/readers/lines.ts';
import { SUPPORTED_DESTINATIONS } from '../src/engine/lines/iso3166.ts';
import { countryLanguages } from '../src/engine/lookup/normalize/abbreviations.ts';
import { foldText, foldTokens } from '../src/engine/lookup/normalize/normalize.ts';

/** P(word | language) for a street-type word of that language, before any counts. */
const P_LANG = 0.02;
/** P(word | country) for a word none of the country's languages has (a borrowed type word). */
const P_BORROW = 0.00002;
/** Weight of the prior against a country's counted streets (pseudo-streets). */
const BETA = 50;
/** Countries below this P(c | w) are not listed. */
const MIN_P = 0.01;
/** Languages that glue the type word to the name (`Hauptstrasse`, `Vesterbrogade`, `Kaivokatu`). */
const COMPOUNDING = new Set(['de', 'da', 'nl', 'sv', 'fi', 'et', 'no']);
/** A suffix counts when at least this many letters precede it. */
const SUFFIX_STEM = 3;

/**
 * The definite form of a type word in the Scandinavian languages, which write a street's type in
 * either form (`gade`/`gaden`, `vej`/`vejen`, `gata`/`gatan`, `väg`/`vägen`): the common gender's
 * suffix, `-n` after a vowel, else `-en`. A word already in that form (`stigen`) has none.
 */
const DEFINITE: Record<string, (w: string) => string | undefined> = {
  da: (w) => (/en$/.test(w) ? undefined : /e$/.test(w) ? `${w}n` : `${w}en`),
  sv: (w) => (/[ae]n$/.test(w) ? undefined : /[ae]$/.test(w) ? `${w}n` : `${w}en`),
};
/** A word points to a Scandinavian country when that country has at least this share of it. */
const DEFINITE_MIN_P = 0.5;

/** Every abbreviation of a type word (`gl` for `gammel`): no definite form. */
const abbreviations = new Set<string>();

/** Adds to `t` the definite form of each word whose country (DEFINITE_MIN_P) writes a DEFINITE language, with the word's weights; sorted. */
function withDefinite(t: Record<string, Record<string, number>>): Record<string, Record<string, number>> {
  const out = { ...t };
  for (const [w, row] of Object.entries(t)) {
    const top = Object.entries(row).sort((a, b) => b[1] - a[1])[0];
    if (!top || top[1] < DEFINITE_MIN_P) continue;
    // a word of three letters or more, not an abbreviation, of a country that writes only such a
    // language (not FI: `katu` is Finnish)
    const langs = countryLanguages(top[0]);
    if (w.length < 3 || abbreviations.has(w) || langs.length === 0 || !langs.every((l) => DEFINITE[l])) continue;
    const d = DEFINITE[langs[0]!]!(w);
    if (d && !(d in out)) out[d] = row;
  }
  return Object.fromEntries(Object.entries(out).sort((a, b) => (a[0] < b[0] ? -1 : 1)));
}

const EXTRACTS: [string, string][] = [
  ['osm-copenhagen-dk-2012/addresses.csv', 'DK'],
  ['osm-helsinki-fi/addresses.csv', 'FI'],
  ['osm-liechtenstein-2024/addresses.csv', 'LI'],
  ['osm-malta-2018/addresses.csv', 'MT'],
  ['osm-vancouver-ca-2015/addresses.csv', 'CA'],
  ['osm-de-at-small-graphhopper/addresses-krems.csv', 'AT'],
  ['osm-de-at-small-graphhopper/addresses-north-bayreuth.csv', 'DE'],
];

interface Group { tokens: string[]; full: string; type?: string; regex?: boolean }

// 1. street-type words per language (folded): whole words, and suffixes of compounding languages
const require = createRequire(import.meta.url);
const tokensDir = resolve(dirname(require.resolve('@mapbox/geocoder-abbreviations/package.json')), 'tokens');
const dests = [...SUPPORTED_DESTINATIONS].sort();
const langsUsed = new Set(dests.flatMap((c) => [...countryLanguages(c)]));
const wordLangs = new Map<string, Set<string>>();
const suffixLangs = new Map<string, Set<string>>();
/** Compass points in every language the package lists (`east`, `west`, `nord`, `noord`): never a street's type. */
const cardinals = new Set<string>();
/** Full form → its abbreviations: streets are written in full, and a street counts for both. */
const abbrevsOf = new Map<string, Set<string>>();
const add = (m: Map<string, Set<string>>, w: string, l: string) => m.set(w, (m.get(w) ?? new Set()).add(l));
for (const f of readdirSync(tokensDir).filter((x) => x.endsWith('.json')).sort()) {
  const lang = f.slice(0, -5);
  if (!langsUsed.has(lang)) continue;
  const groups = JSON.parse(readFileSync(resolve(tokensDir, f), 'utf8')) as Group[];
  for (const g of groups) {
    // compass points name no street type (`East 10th Avenue`, `West Broadway`): never a data word
    if (g.type === 'cardinal' && !g.regex) for (const t of [g.full, ...g.tokens]) if (foldText(t).length >= 4) cardinals.add(foldText(t));
    if (g.type !== 'way' || g.regex) continue;
    const full = foldText(g.full);
    for (const t of new Set([full, ...g.tokens.map(foldText)])) {
      if (t.length < 2 || t.includes(' ') || /\d/.test(t)) continue;
      add(wordLangs, t, lang);
      if (t !== full) add(abbrevsOf, full, t);
      // compounds are abbreviated too (`Hauptstr.`): abbreviations of three letters or more
      if (COMPOUNDING.has(lang) && t.length >= 3 && !full.includes(' ')) add(suffixLangs, t, lang);
    }
  }
}

// 2. counts: per country, in how many distinct street names each word (suffix) occurs
const streets = new Map<string, Set<string>>();
const street = (cc: string, name: string) => { if (name) streets.set(cc, (streets.get(cc) ?? new Set()).add(name)); };
for (const [file, cc] of EXTRACTS) {
  const lines = readFileSync(sharedDataPath(...file.split('/')), 'utf8').split('\n');
  const head = splitCsv(lines[0]!);
  const col = head.indexOf('street');
  for (const l of lines.slice(1)) if (l) street(cc, splitCsv(l)[col] ?? '');
}
const banoDir = sharedDataPath('bano-fr-2015');
for (const f of readdirSync(banoDir).filter((x) => x.endsWith('.csv.gz')).sort()) {
  for (const l of gunzipSync(readFileSync(resolve(banoDir, f))).toString('utf8').split('\n')) if (l) street('FR', splitCsv(l)[2] ?? '');
}
// words the package lacks (Maltese `Triq`, Danish `…vej`): a counted country's own type words,
// the first or last word (4 letters or more) of at least FROM_DATA of its streets; and, where
// every language of the country glues the type word on, the endings of its streets' last words
// (3–7 letters) that follow varied letters (a morpheme, `gasse`, not the tail `asse` of `strasse`).
// These belong to no language: only the counted countries' own streets weigh them.
const FROM_DATA = 0.015;
/** …and at least this many streets. */
const FROM_DATA_MIN = 3;
const dataWords = new Set<string>();
const dataSuffixes = new Map<string, number>();
/** A data ending counts from this many streets on. */
const MIN_DATA_STREETS = 20;
for (const [cc, names] of streets) {
  const edge = new Map<string, number>(), endings = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const name of names) {
    const toks = foldTokens(name).filter((t) => t.length >= 2 && !/\d/.test(t));
    if (toks.length === 0) continue;
    for (const t of new Set([toks[0]!, toks[toks.length - 1]!])) if (t.length >= 4) bump(edge, t);
    const last = toks[toks.length - 1]!;
    for (let k = 3; k <= 8 && k + SUFFIX_STEM <= last.length; k++) bump(endings, last.slice(-k));
  }
  for (const [t, n] of edge) if (n >= Math.max(FROM_DATA_MIN, FROM_DATA * names.size) && !wordLangs.has(t) && !cardinals.has(t)) { wordLangs.set(t, new Set()); dataWords.add(t); }
  if (!countryLanguages(cc).every((l) => COMPOUNDING.has(l))) continue;
  for (const [e, n] of endings) {
    if (e.length > 7 || n < FROM_DATA * names.size || suffixLangs.has(e)) continue;
    let maxExt = 0;
    for (const [e2, n2] of endings) if (e2.length === e.length + 1 && e2.endsWith(e)) maxExt = Math.max(maxExt, n2);
    if (maxExt < 0.6 * n) dataSuffixes.set(e, n);
  }
}
// a data ending that only lengthens another candidate (`erweg` of `weg`) adds nothing
for (const [e, n] of dataSuffixes) {
  const longer = [...suffixLangs.keys(), ...dataSuffixes.keys(), ...wordLangs.keys()].filter((x) => x.length >= 3).some((e2) => e2 !== e && e.endsWith(e2));
  if (!longer && n >= MIN_DATA_STREETS) { suffixLangs.set(e, new Set()); dataWords.add(e); }
}
const counts = new Map<string, Map<string, number>>(); // country → word → streets
const suffixCounts = new Map<string, Map<string, number>>();
for (const [cc, names] of streets) {
  const wc = new Map<string, number>(), sc = new Map<string, number>();
  for (const name of names) {
    const all = foldTokens(name);
    const toks = new Set(all);
    // a type word stands first or last (`Rue …`, `… Boulevard`); `la` of `Rue de la Paix` is none
    const words = new Set<string>();
    for (const t of new Set([all[0], all[all.length - 1]])) if (t && wordLangs.has(t)) for (const w of [t, ...(abbrevsOf.get(t) ?? [])]) words.add(w);
    for (const w of words) wc.set(w, (wc.get(w) ?? 0) + 1);
    const seen = new Set<string>();
    for (const t of toks) {
      for (const s of suffixLangs.keys()) {
        if (t.length < s.length + SUFFIX_STEM || !t.endsWith(s)) continue;
        for (const x of [s, ...(abbrevsOf.get(s) ?? [])]) if (suffixLangs.has(x)) seen.add(x);
      }
    }
    for (const s of seen) sc.set(s, (sc.get(s) ?? 0) + 1);
  }
  counts.set(cc, wc);
  suffixCounts.set(cc, sc);
}

// 3. P(country | word): P(word | language) pooled over the counted countries that write the
// language (each country's streets weighted by its share of the language), the prior elsewhere
function table(langsOf: Map<string, Set<string>>, counted: Map<string, Map<string, number>>): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  const shareOf = (cc: string, l: string) => { const ls = countryLanguages(cc); return ls.includes(l) ? 1 / ls.length : 0; };
  for (const w of [...langsOf.keys()].sort()) {
    const wl = langsOf.get(w)!;
    const pLang = new Map<string, number>();
    for (const l of langsUsed) {
      let n = 0, total = 0;
      for (const [cc, names] of streets) {
        const sh = shareOf(cc, l);
        if (sh === 0) continue;
        // a bilingual country's streets with the word count for the languages that have it (a
        // word of no language is weighed by the counted countries' own streets only)
        const having = countryLanguages(cc).filter((x) => wl.has(x)).length;
        n += (wl.has(l) ? 1 / having : 0) * (counted.get(cc)?.get(w) ?? 0);
        total += sh * names.size;
      }
      pLang.set(l, (n + BETA * (wl.has(l) ? P_LANG : P_BORROW)) / (total + BETA));
    }
    const pw = new Map<string, number>();
    for (const cc of dests) {
      const langs = countryLanguages(cc);
      const prior = langs.length === 0 ? P_BORROW : langs.reduce((a, l) => a + pLang.get(l)! / langs.length, 0);
      const n = streets.get(cc)?.size;
      // a country's own streets refine it (`Boulevard` is Danish too: H.C. Andersens Boulevard)
      pw.set(cc, n === undefined ? prior : ((counted.get(cc)?.get(w) ?? 0) + BETA * prior) / (n + BETA));
    }
    const sum = [...pw.values()].reduce((a, b) => a + b, 0);
    const row: Record<string, number> = {};
    for (const [cc, p] of [...pw].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
      const v = Math.round((1000 * p) / sum) / 1000;
      if (v >= MIN_P) row[cc] = v;
    }
    out[w] = row;
  }
  return out;
}

for (const ab of abbrevsOf.values()) for (const x of ab) abbreviations.add(x);
const words = withDefinite(table(wordLangs, counts));
const suffixes = withDefinite(table(suffixLangs, suffixCounts));
// four entries a line: the file stays small and under the house's 400 lines
const fmt = (t: Record<string, Record<string, number>>) => {
  const items = Object.entries(t).map(([w, r]) => `${JSON.stringify(w)}: ${JSON.stringify(r)},`);
  const lines: string[] = [];
  for (let i = 0; i < items.length; i += 4) lines.push('  ' + items.slice(i, i + 4).join(' '));
  return '{\n' + lines.join('\n') + '\n}';
};
const ts = [
  '// GENERATED by scripts/gen-street-word-countries.ts from @mapbox/geocoder-abbreviations, the',
  '// street-name languages per country and the street names of ../shared/data. Do not edit.',
  `// Streets counted: ${[...streets].map(([cc, s]) => `${cc} ${s.size}`).join(', ')}.`,
  '/** Folded street-type word → P(country | word) (countries under ' + MIN_P + ' left out). */',
  `export const STREET_WORD_COUNTRIES: Readonly<Record<string, Readonly<Record<string, number>>>> = ${fmt(words)};`,
  '/** Folded suffix of a compound street name (`…strasse`, `…vej`) → P(country | suffix). */',
  `export const STREET_SUFFIX_COUNTRIES: Readonly<Record<string, Readonly<Record<string, number>>>> = ${fmt(suffixes)};`,
  '',
].join('\n');
writeFileSync(resolve(PROJECT_ROOT, 'src', 'engine', 'lookup', 'named-place', 'street-words.generated.ts'), ts);
console.log(`${Object.keys(words).length} words, ${Object.keys(suffixes).length} suffixes written`);
