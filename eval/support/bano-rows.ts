/**
 * Every row of the BANO files in ../shared/data/bano-fr-2015 (17 départements, ~487k rows), as
 * plain rows: the truth of the BANO evaluations and the seed of the national-scale bench input.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { sharedDataPath } from '../../src/config/shared-data.ts';
import { splitCsv } from '../../src/data/readers/lines.ts';

export interface BanoRow { id: string; hn: string; street: string; postcode: string; city: string; lat: number; lon: number }

/** Every row of the BANO files (17 départements, ~487k rows). */
export function readBanoRows(): BanoRow[] {
  const dir = sharedDataPath('bano-fr-2015');
  const rows: BanoRow[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.csv.gz')).sort()) {
    for (const l of gunzipSync(readFileSync(`${dir}/${f}`)).toString('utf8').split('\n')) {
      if (!l) continue;
      const x = splitCsv(l);
      if (x.length < 8 || !x[1] || !x[2]) continue;
      rows.push({ id: x[0]!, hn: x[1]!, street: x[2]!, postcode: x[3]!, city: x[4]!, lat: Number(x[6]), lon: Number(x[7]) });
    }
  }
  return rows;
}
