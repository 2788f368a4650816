/**
 * The query mix of the national-scale lookup bench (bench/index-scale-oa.bench.ts `mix()`): 3000
 * real BANO addresses (copy 0 of the generated national file), 70 % as typed, 10 % with a letter
 * dropped from the longest street word, 10 % on a street that does not exist, 10 % with a postcode
 * of another commune. Shared by tools that must see exactly the bench's queries (equivalence
 * runs, CPU-per-category measurements).
 */
import type { SearchRequest } from '../src/contract/requests.ts';
import { sample, type Truth } from '../eval/lookup/suites.ts';
import { readBanoRows } from '../eval/support/bano-rows.ts';
import { mulberry32 } from '../eval/support/prng.ts';

/** Category of query i of the mix (i % 10). */
export const MIX_CATEGORY = ['clean', 'clean', 'clean', 'clean', 'clean', 'clean', 'clean', 'typo', 'unknown', 'wrongpc'] as const;
export type MixCategory = (typeof MIX_CATEGORY)[number];

/** The bench's structured (`free` false) or free-text queries, in the bench's order. */
export function lookupMix(free: boolean): SearchRequest[] {
  const realRows = readBanoRows();
  const truth: Truth[] = sample(realRows, 3000, 11).map((r) => ({ street: r.street, hn: r.hn, postcode: r.postcode, city: r.city, country: 'FR', lat: r.lat, lon: r.lon }));
  const postcodes = [...new Set(realRows.map((r) => r.postcode))];
  const rnd = mulberry32(5);
  const words = ['Tilleuls', 'Peupliers', 'Chardonnerets', 'Grenadiers', 'Mésanges', 'Pervenches'];
  return truth.map((t, i) => {
    let street = t.street, zip = t.postcode;
    const k = i % 10;
    if (k === 7) {
      const w = street.split(' ');
      const j = w.reduce((b, x, n) => (x.length > w[b]!.length ? n : b), 0);
      const x = w[j]!;
      if (x.length > 4) { const p = 1 + Math.floor(rnd() * (x.length - 2)); w[j] = x.slice(0, p) + x.slice(p + 1); }
      street = w.join(' ');
    }
    if (k === 8) street = `Allée des ${words[i % words.length]} ${100 + (i % 900)}`;
    if (k === 9) zip = postcodes[Math.floor(rnd() * postcodes.length)]!;
    return free ? { address: `${street} ${t.hn}, ${zip} ${t.city}` } : { street, housenumber: t.hn, zip, city: t.city };
  });
}
