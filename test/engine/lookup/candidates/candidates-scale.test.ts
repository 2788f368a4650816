/**
 * National scale: a common street name exists in thousands of towns, and a large city has
 * thousands of streets. On a synthetic index of about two million address points (6,000 small
 * towns with a Hauptstraße, a Bahnhofstraße and 15 other streets; 30 cities of 2,000 streets),
 * the postcode or the city the query names must narrow the candidates before the rank cut-off:
 * the Hauptstraße of the named city is found, however many other towns have one and however many
 * streets the city has. Built with the project's own IndexBuilder (under a minute).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { emptyBatch } from '../../../../src/data/source-types.ts';
import type { AddressIndex } from '../../../../src/engine/index/index.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import { mulberry32 } from '../../../../tools/prng.ts';
import { indexOfBatch } from '../../../helpers/test-index.ts';

const TOWNS = 6000;
const STREETS = ['Hauptstraße', 'Bahnhofstraße', 'Schulstraße', 'Gartenweg', 'Kirchgasse'];
const OTHER_STREETS = 12;
const NUMBERS = 15;
/** Large cities: more streets than the candidate stage counts postings for. */
const CITIES = 30;
const CITY_STREETS = 2000;
const CITY_NUMBERS = 4;
const SYL = ['ber', 'hau', 'sen', 'dorf', 'lin', 'gen', 'tal', 'burg', 'feld', 'hof', 'kir', 'chen', 'wal', 'dau', 'mar', 'stet', 'ten', 'rode', 'heim', 'bach'];

function townName(i: number): string {
  // a unique three-syllable name per town (20³ = 8000 > TOWNS)
  const a = SYL[i % 20]!, b = SYL[Math.floor(i / 20) % 20]!, c = SYL[Math.floor(i / 400) % 20]!;
  const n = a + b + c;
  return n[0]!.toUpperCase() + n.slice(1);
}

let index: AddressIndex;
const towns: { name: string; zip: string; pop: number }[] = [];

beforeAll(() => {
  const b = emptyBatch();
  const rnd = mulberry32(11);
  for (let t = 0; t < TOWNS; t++) {
    const name = townName(t);
    const zip = String(10000 + t * 17).padStart(5, '0');
    // a few large cities, many small towns: the rank cut-off favours the large
    const pop = t < CITIES ? 500_000 - t * 1000 : 800 + Math.floor(rnd() * 5000);
    towns.push({ name, zip, pop });
    const lat = 47 + (t % 80) * 0.07, lon = 6 + Math.floor(t / 80) * 0.1;
    b.places.push({ country: 'DE', name, lat, lon, population: pop, type: pop > 100_000 ? 'city' : 'village' });
    const big = t < CITIES;
    // in a city the common streets come last and are the smallest: neither the document order
    // nor the rank (number of addresses) keeps them among the first candidates by chance
    const others = Array.from({ length: big ? CITY_STREETS : OTHER_STREETS }, (_, k) => `${townName((t * 31 + k) % 8000)}weg`);
    const streets = big ? [...others, ...STREETS] : [...STREETS, ...others];
    streets.forEach((street, si) => {
      const numbers = big ? (STREETS.includes(street) ? CITY_NUMBERS : CITY_NUMBERS + 2) : NUMBERS;
      for (let n = 1; n <= numbers; n++) {
        b.addresses.push({ country: 'DE', street, housenumber: String(n), postcode: zip, city: name, district: '', lat: lat + si * 1e-4, lon: lon + n * 1e-5 });
      }
    });
  }
  index = indexOfBatch(b, 'synthetic');
}, 600_000);

const POINTS = CITIES * (STREETS.length + CITY_STREETS) * CITY_NUMBERS + (TOWNS - CITIES) * (STREETS.length + OTHER_STREETS) * NUMBERS;

describe(`candidates at national scale (${POINTS} address points)`, () => {
  it('finds the Hauptstraße of the town or city the query names, by city, by postcode, or both', () => {
    const rnd = mulberry32(5);
    let n = 0, ok = 0;
    const failures: string[] = [];
    for (let k = 0; k < 150; k++) {
      // every third query names one of the large cities
      const t = k % 3 === 0 ? towns[Math.floor(rnd() * CITIES)]! : towns[CITIES + Math.floor(rnd() * (TOWNS - CITIES))]!;
      const hn = String(1 + Math.floor(rnd() * CITY_NUMBERS));
      for (const q of [
        { address: `Hauptstraße ${hn}, ${t.zip} ${t.name}` },
        { address: `Hauptstraße ${hn}, ${t.name}` },
        { street: 'Hauptstraße', housenumber: hn, zip: t.zip },
        { street: 'Hauptstrasse', housenumber: hn, city: t.name },
        { address: `Bahnhofstr. ${hn} ${t.name}` },
        // a word the index does not hold defeats the exact path: the counted candidates decide
        { address: `Hauptstraße ${hn}, Hinterhaus, ${t.zip} ${t.name}` },
      ]) {
        n++;
        const r = lookup(index, q);
        if (r.matchlevel === 'housenumber' && r.housenumber === hn && r.city === t.name && r.zip === t.zip) ok++;
        else if (failures.length < 5) failures.push(`${JSON.stringify(q)} → ${r.matchlevel} ${r.street} ${r.housenumber} ${r.city}`);
      }
    }
    expect(failures).toEqual([]);
    expect(ok).toBe(n);
  });
});
