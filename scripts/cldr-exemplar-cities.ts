/**
 * Place names per language from CLDR 48's exemplar cities (npm cldr-dates-full 48.2.0, Unicode
 * licence): each time zone's city in every language (`main/<lang>/timeZoneNames.json`,
 * Europe/Prague → cs "Praha", de "Prag", el "Πράγα"). A language-tagged source: the names of the
 * capitals and large cities people write in their own language, used by
 * scripts/gen-default-layer.ts to name places as locals write them and to match exonyms.
 *
 * English has an exemplar only where it differs from the zone id (Europe/Kiev → Kyiv); otherwise
 * the zone id's last part, underscores as spaces, is the English name.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.resolve('cldr-dates-full/package.json')));

type ZoneTree = { [k: string]: ZoneTree | string };

/** Zone id → exemplar city in `lang` (only zones the language names). */
function exemplars(lang: string): Map<string, string> {
  const out = new Map<string, string>();
  let json: { main: Record<string, { dates: { timeZoneNames: { zone?: ZoneTree } } }> };
  try {
    json = JSON.parse(readFileSync(resolve(root, 'main', lang, 'timeZoneNames.json'), 'utf8'));
  } catch {
    return out;
  }
  const walk = (t: ZoneTree, path: string[]) => {
    for (const [k, v] of Object.entries(t)) {
      if (typeof v !== 'object') continue;
      if (typeof v.exemplarCity === 'string') out.set([...path, k].join('/'), v.exemplarCity);
      else walk(v, [...path, k]);
    }
  };
  walk(json.main[lang]?.dates.timeZoneNames.zone ?? {}, []);
  return out;
}

/**
 * Per zone id: its exemplar city per language (`en` always present: CLDR's, else the zone id's
 * last part), for the languages asked for.
 */
export function exemplarCities(langs: readonly string[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const en = exemplars('en');
  for (const lang of new Set(['en', ...langs])) {
    for (const [zone, name] of exemplars(lang)) {
      let m = out.get(zone);
      if (!m) out.set(zone, (m = new Map()));
      m.set(lang, name);
    }
  }
  for (const [zone, m] of out) if (!m.has('en')) m.set('en', en.get(zone) ?? zone.split('/').pop()!.replace(/_/g, ' '));
  return out;
}
