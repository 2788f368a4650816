/**
 * The `exonym city` pattern beyond the extracts' own cities: for every city of the places set
 * with a tagged exonym (CLDR, see taggedExonyms), five of its GeoNames postcodes (seeded sample)
 * asked as `postcode Exonym` (`1010 Vienna`, `110 00 Prague`), as a CRM export in English writes
 * them. Truth = the postcode and the city's local name.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { splitCsv } from '../../../src/data/readers/lines.ts';
import { foldText } from '../../../src/engine/lookup/normalize/normalize.ts';
import { D } from '../suites.ts';
import { makeCase, type PeopleCase } from './cases.ts';
import { taggedExonyms } from './places.ts';
import { allowedCountries } from './ruled-out.ts';
import { seededSample } from './split.ts';

export const POSTCODES_PER_EXONYM = 5;
const CITY_FIRST = new Set(['GB', 'IE', 'CA', 'MT', 'AU']);

export function exonymPostcodeCases(): PeopleCase[] {
  const byCountry = new Map<string, [string, string][]>();
  for (const [k, ex] of taggedExonyms()) {
    const [cc, local] = k.split('|') as [string, string];
    (byCountry.get(cc) ?? byCountry.set(cc, []).get(cc)!).push([local, ex]);
  }
  const out: PeopleCase[] = [];
  for (const [cc, cities] of [...byCountry].sort(([a], [b]) => a.localeCompare(b))) {
    let text = '';
    try { text = gunzipSync(readFileSync(D('geonames-postalcodes', `${cc}.csv.gz`))).toString('utf8'); } catch { continue; }
    const rows = text.split('\n').slice(1).filter(Boolean).map((l) => splitCsv(l));
    for (const [local, ex] of cities) {
      const pcs = new Map<string, string>();
      for (const f of rows) {
        const place = (f[2] ?? '').split(' / ')[0]!.trim();
        const fp = foldText(place);
        if (f[1] && (fp === local || fp.startsWith(local + ' ')) && !pcs.has(f[1])) pcs.set(f[1], place);
      }
      for (const [pc, place] of seededSample([...pcs].sort(([a], [b]) => a.localeCompare(b)), POSTCODES_PER_EXONYM, 18)) {
        const q = CITY_FIRST.has(cc) ? `${ex} ${pc}` : `${pc} ${ex}`;
        out.push(makeCase('addresses', `exonym-postcodes:${cc}:${pc}:${ex}`, cc, 'exonym city', { address: q }, {
          kind: 'area', country: cc, city: place, cityNames: [ex], postcode: pc, allowed: allowedCountries(pc, undefined, cc),
        }));
      }
    }
  }
  return out;
}
