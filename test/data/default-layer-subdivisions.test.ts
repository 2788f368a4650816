/**
 * Subdivision coverage of the embedded default layer, per destination country: every place and
 * postcode should carry a `state` that is a current first-level ISO 3166-2 code of its own country
 * (ISO 3166-2 as CLDR 48 carries it, npm cldr-core), and a `county` where ISO has a second level.
 * Prints the coverage table (the figures in docs/default-layer.md) and holds each country to its
 * floor, so a regenerated layer cannot silently lose states.
 */
import { describe, expect, it } from 'vitest';
import { readDefaultLayer } from '../../src/data/readers/default-layer.ts';
import { SUPPORTED_DESTINATIONS } from '../../src/engine/lines/iso3166.ts';
import { subdivisionName } from '../../src/engine/lookup/record/subdivisions.ts';
import { firstLevelCodes, hasSecondLevel } from '../../scripts/cldr-subdivisions.ts';

interface Tally { n: number; state: number; invalid: number; county: number }
interface Coverage { places: Tally; postcodes: Tally; states: Set<string>; invalidCodes: Set<string> }

/**
 * Share of places + postcodes with a valid state, below 1 only where the sources lack it: FR
 * Clipperton (98799, no ISO 3166-2:FR code); GB the Isle of Man, Sark and Alderney postcodes and
 * Akrotiri (not in ISO 3166-2:GB); SI four postcodes of border villages with no place within 10 km
 * (docs/default-layer.md).
 */
const STATE_FLOOR: Record<string, number> = { FR: 0.9999, GB: 0.995, SI: 0.995 };
/** Share with a county, for the countries whose ISO 3166-2 has a second level (GB: no admin2 for BT codes). */
const COUNTY_FLOOR: Record<string, number> = { FR: 0.9999, GB: 0.995, IE: 0.995 };

const pct = (a: number, n: number) => (n ? `${((100 * a) / n).toFixed(1)} %` : '—');

describe('subdivisions of the embedded default layer', () => {
  it('gives every place and postcode a first-level ISO 3166-2 state of its own country', async () => {
    const cov = new Map<string, Coverage>(SUPPORTED_DESTINATIONS.map((cc) => [cc, {
      places: { n: 0, state: 0, invalid: 0, county: 0 }, postcodes: { n: 0, state: 0, invalid: 0, county: 0 },
      states: new Set<string>(), invalidCodes: new Set<string>(),
    }]));
    const valid = new Map(SUPPORTED_DESTINATIONS.map((cc) => [cc, firstLevelCodes(cc)]));
    const count = (kind: 'places' | 'postcodes', cc: string, stateCode: string, state: string, county: string) => {
      const c = cov.get(cc)!;
      const t = c[kind];
      t.n++;
      if (stateCode) {
        if (valid.get(cc)!.has(stateCode) && state) { t.state++; c.states.add(stateCode); } else { t.invalid++; c.invalidCodes.add(stateCode); }
      }
      if (county) t.county++;
    };
    await readDefaultLayer({
      address() {}, line() {}, admin() {}, reject() {},
      place(p) { count('places', p.country, p.stateCode ?? '', p.state ?? '', p.county ?? ''); },
      postcode(p) { count('postcodes', p.country, p.stateCode, p.state, p.county); },
    });

    const rows = ['| CC | ISO level 1 | used | places | with state | postcodes | with state | county (level 2) | state names: en / local language |', '|---|---|---|---|---|---|---|---|---|'];
    const problems: string[] = [];
    for (const cc of SUPPORTED_DESTINATIONS.toSorted()) {
      const c = cov.get(cc)!;
      const both = c.places.n + c.postcodes.n, withState = c.places.state + c.postcodes.state;
      const second = hasSecondLevel(cc);
      const county = c.places.county + c.postcodes.county;
      const local = LOCAL_LANG[cc] ?? 'en';
      const en = [...c.states].filter((s) => subdivisionName(s, 'en')).length;
      const loc = local === 'en' ? en : [...c.states].filter((s) => subdivisionName(s, local)).length;
      rows.push(`| ${cc} | ${valid.get(cc)!.size} | ${c.states.size} | ${c.places.n} | ${pct(c.places.state, c.places.n)} | ${c.postcodes.n} | ${pct(c.postcodes.state, c.postcodes.n)} | ${second ? pct(county, both) : 'no level 2'} | ${en} / ${loc} (${local}) |`);
      if (en < c.states.size) problems.push(`${cc}: ${c.states.size - en} state codes without a name in the pinned table`);
      if (c.invalidCodes.size) problems.push(`${cc}: not a first-level ISO 3166-2 code of ${cc}: ${[...c.invalidCodes].sort().join(' ')}`);
      if (withState < (STATE_FLOOR[cc] ?? 1) * both) problems.push(`${cc}: ${pct(withState, both)} with a state, floor ${pct(STATE_FLOOR[cc] ?? 1, 1)}`);
      if (second && county < (COUNTY_FLOOR[cc] ?? 1) * both) problems.push(`${cc}: ${pct(county, both)} with a county, floor ${pct(COUNTY_FLOOR[cc] ?? 1, 1)}`);
    }
    console.log(rows.join('\n'));
    expect(problems).toEqual([]);
  });
});

/** The language a country's state names are shown in by default (its first official language). */
const LOCAL_LANG: Record<string, string> = {
  AR: 'es', AT: 'de', AU: 'en', BE: 'nl', BG: 'bg', BR: 'pt', CA: 'en', CH: 'de', CY: 'el', CZ: 'cs', DE: 'de', DK: 'da',
  EE: 'et', ES: 'es', FI: 'fi', FR: 'fr', GB: 'en', GR: 'el', HR: 'hr', HU: 'hu', IE: 'en', IT: 'it', LI: 'de', LT: 'lt',
  LU: 'fr', LV: 'lv', MT: 'mt', NL: 'nl', PL: 'pl', PT: 'pt', RO: 'ro', SE: 'sv', SI: 'sl', SK: 'sk',
};
