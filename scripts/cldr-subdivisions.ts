/**
 * ISO 3166-2 as CLDR 48 carries it (npm cldr-core 48.2.0, installed as the peer dependency of
 * cldr-subdivisions-full): which codes are a country's first level, which sit below a first-level
 * code (the second level), deprecated codes and their replacements, and CLDR's subdivision names.
 * Used by scripts/gen-default-layer.ts (to keep only current first-level codes) and by the
 * default-layer coverage test. Codes are written the ISO way: `LV-113`, `FR-20R`.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dirOf = (pkg: string) => dirname(fileURLToPath(import.meta.resolve(`${pkg}/package.json`)));
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

interface Containment { supplemental: { subdivisionContainment: Record<string, { _contains: string[] }> } }
interface Aliases { supplemental: { metadata: { alias: { subdivisionAlias: Record<string, { _replacement: string }> } } } }
interface Names { subdivisions?: { localeDisplayNames?: { subdivisions?: Record<string, string> } } }

const core = dirOf('cldr-core');
const containment = (readJson(resolve(core, 'supplemental', 'subdivisionContainment.json')) as Containment).supplemental.subdivisionContainment;
const aliases = (readJson(resolve(core, 'supplemental', 'aliases.json')) as Aliases).supplemental.metadata.alias.subdivisionAlias;

/** `lv113` → `LV-113`. */
export const isoOfCldr = (c: string): string => `${c.slice(0, 2).toUpperCase()}-${c.slice(2).toUpperCase()}`;
/** `LV-113` → `lv113`. */
export const cldrOfIso = (code: string): string => code.replace('-', '').toLowerCase();

/** The country's first-level ISO 3166-2 codes (CLDR 48), e.g. `DE-BY`. */
export function firstLevelCodes(cc: string): Set<string> {
  return new Set((containment[cc.toUpperCase()]?._contains ?? []).map(isoOfCldr));
}

/** Second-level codes below a first-level code (`FR-ARA` → `FR-01` …), empty where ISO has none. */
export function secondLevelCodes(firstLevel: string): Set<string> {
  return new Set((containment[cldrOfIso(firstLevel)]?._contains ?? []).map(isoOfCldr));
}

/** Whether ISO 3166-2 (as CLDR 48 has it) gives the country a second level. */
export function hasSecondLevel(cc: string): boolean {
  return [...firstLevelCodes(cc)].some((c) => secondLevelCodes(c).size > 0);
}

/** The replacement of a deprecated code when it is one single code of the same country, else ''. */
export function currentCode(code: string): string {
  const r = aliases[cldrOfIso(code)]?._replacement;
  if (!r || r.includes(' ') || r.length <= 2 || !r.startsWith(code.slice(0, 2).toLowerCase())) return '';
  return isoOfCldr(r);
}

const namesDir = resolve(dirOf('cldr-subdivisions-full'), 'subdivisions');
const nameCache = new Map<string, Record<string, string>>();
/** CLDR subdivision names of a language, keyed by CLDR code (`debe`); {} when CLDR has none. */
export function cldrSubdivisionNames(lang: string): Record<string, string> {
  let m = nameCache.get(lang);
  if (m) return m;
  try {
    const raw = (readJson(resolve(namesDir, lang, `${lang}.json`)) as Names).subdivisions?.localeDisplayNames?.subdivisions ?? {};
    // CLDR marks a few names with a footnote (en `frIDF`: `Île-de-France²`): no part of the name
    m = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.replace(/[\u00b9\u00b2\u00b3]+$/u, '')]));
  } catch {
    m = {};
  }
  nameCache.set(lang, m);
  return m;
}
