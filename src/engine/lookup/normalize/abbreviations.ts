/**
 * Street-type abbreviations per language, from @mapbox/geocoder-abbreviations (only its `way`
 * groups: Straße/Str., Avenue/Av., Boulevard/Bd, …). The index stores full forms; a query token
 * that is an abbreviation is looked up under its full form(s) and counts as an expansion.
 */
import { foldText } from './normalize.ts';
import bg from '@mapbox/geocoder-abbreviations/tokens/bg.json' with { type: 'json' };
import cs from '@mapbox/geocoder-abbreviations/tokens/cs.json' with { type: 'json' };
import da from '@mapbox/geocoder-abbreviations/tokens/da.json' with { type: 'json' };
import de from '@mapbox/geocoder-abbreviations/tokens/de.json' with { type: 'json' };
import el from '@mapbox/geocoder-abbreviations/tokens/el.json' with { type: 'json' };
import en from '@mapbox/geocoder-abbreviations/tokens/en.json' with { type: 'json' };
import es from '@mapbox/geocoder-abbreviations/tokens/es.json' with { type: 'json' };
import et from '@mapbox/geocoder-abbreviations/tokens/et.json' with { type: 'json' };
import fi from '@mapbox/geocoder-abbreviations/tokens/fi.json' with { type: 'json' };
import fr from '@mapbox/geocoder-abbreviations/tokens/fr.json' with { type: 'json' };
import hr from '@mapbox/geocoder-abbreviations/tokens/hr.json' with { type: 'json' };
import hu from '@mapbox/geocoder-abbreviations/tokens/hu.json' with { type: 'json' };
import it from '@mapbox/geocoder-abbreviations/tokens/it.json' with { type: 'json' };
import lt from '@mapbox/geocoder-abbreviations/tokens/lt.json' with { type: 'json' };
import lv from '@mapbox/geocoder-abbreviations/tokens/lv.json' with { type: 'json' };
import nl from '@mapbox/geocoder-abbreviations/tokens/nl.json' with { type: 'json' };
import pl from '@mapbox/geocoder-abbreviations/tokens/pl.json' with { type: 'json' };
import pt from '@mapbox/geocoder-abbreviations/tokens/pt.json' with { type: 'json' };
import ro from '@mapbox/geocoder-abbreviations/tokens/ro.json' with { type: 'json' };
import sk from '@mapbox/geocoder-abbreviations/tokens/sk.json' with { type: 'json' };
import sv from '@mapbox/geocoder-abbreviations/tokens/sv.json' with { type: 'json' };

interface Group { tokens: string[]; full: string; type?: string; regex?: boolean }
const RAW: Record<string, Group[]> = { bg, cs, da, de, el, en, es, et, fi, fr, hr, hu, it, lt, lv, nl, pl, pt, ro, sk, sv } as unknown as Record<string, Group[]>;

/** Official languages used for street names, per country (ISO 3166-1 alpha-2). */
const COUNTRY_LANGS: Record<string, readonly string[]> = {
  AR: ['es'], AT: ['de'], AU: ['en'], BE: ['fr', 'nl', 'de'], BG: ['bg'], BR: ['pt'], CA: ['en', 'fr'],
  CH: ['de', 'fr', 'it'], CY: ['el', 'en'], CZ: ['cs'], DE: ['de'], DK: ['da'], EE: ['et'], ES: ['es'],
  FI: ['fi', 'sv'], FR: ['fr'], GB: ['en'], GR: ['el'], HR: ['hr'], HU: ['hu'], IE: ['en'], IT: ['it'],
  LI: ['de'], LT: ['lt'], LU: ['fr', 'de'], LV: ['lv'], MT: ['en'], NL: ['nl'], PL: ['pl'], PT: ['pt'],
  RO: ['ro'], SE: ['sv'], SI: [], SK: ['sk'], US: ['en'],
};

export function countryLanguages(iso2: string): readonly string[] {
  return COUNTRY_LANGS[iso2] ?? [];
}

/** Per language: folded abbreviation → folded full forms; folded full → folded abbreviations. */
const EXPAND = new Map<string, Map<string, string[]>>();
const ABBREV = new Map<string, Map<string, string[]>>();
for (const [lang, groups] of Object.entries(RAW)) {
  const ex = new Map<string, string[]>();
  const ab = new Map<string, string[]>();
  for (const g of groups) {
    if (g.type !== 'way' || g.regex) continue;
    const full = foldText(g.full);
    if (full === '' || full.includes(' ')) continue;
    for (const t of g.tokens) {
      const ft = foldText(t);
      if (ft === '' || ft === full || ft.includes(' ') || ft.length < 2) continue;
      const list = ex.get(ft) ?? [];
      if (!list.includes(full)) list.push(full);
      ex.set(ft, list);
      const al = ab.get(full) ?? [];
      if (!al.includes(ft)) al.push(ft);
      ab.set(full, al);
    }
  }
  EXPAND.set(lang, ex);
  ABBREV.set(lang, ab);
}
/** Full forms never expand further (e.g. French "cours" is both a type and an abbreviation). */
const ALL_FULL = new Set<string>();
for (const ab of ABBREV.values()) for (const f of ab.keys()) ALL_FULL.add(f);

const ALL_LANGS = Object.keys(RAW);
/** Abbreviation → full forms over all languages (in language order), for an unknown country. */
const ALL_EXPAND = new Map<string, string[]>();
for (const l of ALL_LANGS) {
  for (const [ab, fulls] of EXPAND.get(l)!) {
    const list = ALL_EXPAND.get(ab) ?? [];
    for (const f of fulls) if (!list.includes(f)) list.push(f);
    ALL_EXPAND.set(ab, list);
  }
}

/**
 * The saint of a place's name, as people write it and as the names are written: `St Etienne`,
 * `St-Jean-sur-Richelieu` (the name: Saint-…), `Ste Foy` (Sainte-Foy), `Sankt Moritz` (St.
 * Moritz). The street-type tables read `St` as Street only; these are looked up besides what the
 * token is. Not the other ways (measured: docs/accuracy.md): `Saint` → `St` let a French town
 * lose to a postcode read in a date, `St` → `Sankt` took Malta's `St. Julian's` to a German village.
 */
const SAINT_FORMS: ReadonlyMap<string, readonly string[]> = new Map([
  ['st', ['saint']], ['sankt', ['st']], ['ste', ['sainte']],
]);

/** Another way a saint's word of a place's name is written (`st` → `saint`); empty for any other word. */
export function saintForms(tok: string): readonly string[] {
  return SAINT_FORMS.get(tok) ?? NONE;
}

/** German/compound suffix: `hauptstr` → `hauptstrasse` (after folding, ß is already ss). */
function compoundExpansion(tok: string, langs: readonly string[]): string | undefined {
  if (tok.length >= 5 && tok.endsWith('str') && (langs.includes('de') || langs.length === 0)) return tok + 'asse';
  return undefined;
}

/**
 * The full forms a folded token may stand for, in the given languages (all languages when the
 * country is unknown). Empty when the token is not an abbreviation (most tokens: then one
 * shared empty array is returned, nothing is allocated).
 */
export function expansions(tok: string, langs: readonly string[] | null): readonly string[] {
  const c = compoundExpansion(tok, langs ?? NONE);
  if (ALL_FULL.has(tok)) return c ? [c] : NONE;
  let out: string[] | undefined = c ? [c] : undefined;
  if (!langs || langs.length === 0) out = withNew(out, ALL_EXPAND.get(tok));
  else for (const l of langs) out = withNew(out, EXPAND.get(l)?.get(tok));
  return out ?? NONE;
}

const NONE: readonly string[] = Object.freeze([]);

/** `out` with the forms it does not hold yet appended (created when there is one to add). */
function withNew(out: string[] | undefined, forms: readonly string[] | undefined): string[] | undefined {
  if (!forms) return out;
  const o = out ?? [];
  for (const x of forms) if (!o.includes(x)) o.push(x);
  return o;
}

/**
 * Index side: tokens of a name with unambiguous abbreviations (in the country's languages)
 * replaced by their full form, so that the index holds one spelling.
 */
export function canonicalTokens(tokens: string[], langs: readonly string[]): string[] {
  if (langs.length === 0) return tokens;
  return tokens.map((t) => {
    const c = compoundExpansion(t, langs);
    if (c) return c;
    if (ALL_FULL.has(t)) return t;
    for (const l of langs) {
      const f = EXPAND.get(l)?.get(t);
      if (f && f.length === 1) return f[0]!;
    }
    return t;
  });
}

/** Abbreviations of a folded full form in a language (for generating test variants). */
export function abbreviationsOf(full: string, lang: string): string[] {
  return ABBREV.get(lang)?.get(full) ?? [];
}
