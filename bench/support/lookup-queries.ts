/**
 * A fixed lookup query mix from the first BANO rows (../shared/data/bano-fr-2015/bano-04.csv.gz)
 * for the lookup A/B and the explain bench: a third structured, a third free text, a third a
 * city (every other one misspelt) with or without its postcode.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { sharedDataPath } from '../../src/config/shared-data.ts';
import type { SearchRequest } from '../../src/contract/requests.ts';

export function banoQueryMix(n: number): SearchRequest[] {
  const rows = gunzipSync(readFileSync(sharedDataPath('bano-fr-2015', 'bano-04.csv.gz'))).toString('utf8').split('\n')
    .filter(Boolean).slice(0, n).map((l) => l.split(','));
  return rows.map(([, hn, street, zip, city], i): SearchRequest => {
    if (i % 3 === 0) return { street: street!, housenumber: hn!, zip: zip!, city: city! };
    if (i % 3 === 1) return { address: `${hn} ${street}, ${zip} ${city}` };
    return { city: i % 2 ? city! : city!.slice(0, -1) + 'x', ...(i % 5 ? { zip: zip! } : {}) };
  });
}
