/**
 * CLDR exemplar city names (npm package cldr-dates-full, `main/<lang>/timeZoneNames.json`):
 * language-tagged names of the cities that name a time zone. A locale's file lists only the names
 * that differ from CLDR's root, whose name is the zone id's last part with `_` as a space
 * (`Europe/London` → `London`); the zone ids are the union of the files' keys and Node's
 * `Intl.supportedValuesOf('timeZone')`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type ZoneTree = { [k: string]: ZoneTree | { _type?: string; exemplarCity?: string } };

const cache = new Map<string, Map<string, string>>();

/** zone id → exemplar city as the locale writes it (only the ones the locale's file lists). */
function localeExemplars(lang: string): Map<string, string> {
  let m = cache.get(lang);
  if (m) return m;
  m = new Map();
  let json: { main: Record<string, { dates: { timeZoneNames: { zone: ZoneTree } } }> };
  try {
    json = JSON.parse(readFileSync(require.resolve(`cldr-dates-full/main/${lang}/timeZoneNames.json`), 'utf8'));
  } catch {
    cache.set(lang, m);
    return m;
  }
  const walk = (t: ZoneTree, path: string[]) => {
    for (const [k, v] of Object.entries(t)) {
      if (v && typeof v === 'object' && '_type' in v) { if (typeof v.exemplarCity === 'string') m!.set([...path, k].join('/'), v.exemplarCity); }
      else if (v && typeof v === 'object') walk(v as ZoneTree, [...path, k]);
    }
  };
  walk(Object.values(json.main)[0]!.dates.timeZoneNames.zone, []);
  cache.set(lang, m);
  return m;
}

/** All zone ids known to CLDR's files for these languages and to Node's ICU. */
export function zoneIds(langs: readonly string[]): string[] {
  const ids = new Set<string>(Intl.supportedValuesOf('timeZone'));
  for (const l of langs) for (const k of localeExemplars(l).keys()) ids.add(k);
  return [...ids].sort();
}

/** The root name of a zone: its id's last part, `_` as a space. */
export function rootExemplar(zone: string): string {
  return zone.split('/').pop()!.replace(/_/g, ' ');
}

/** The exemplar city of a zone in a language (CLDR's root name when the locale lists none). */
export function exemplarCity(zone: string, lang: string): string {
  return localeExemplars(lang).get(zone) ?? rootExemplar(zone);
}

/** Whether the locale's own file names the zone (a tagged name, not the root fallback). */
export function hasOwnExemplar(zone: string, lang: string): boolean {
  return localeExemplars(lang).has(zone);
}
