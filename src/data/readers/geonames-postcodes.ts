/**
 * GeoNames postal codes, in both forms users download:
 *  - GeoNames' own dump (tab-separated, no header): country, postal code, place, admin name1,
 *    admin code1, admin name2, admin code2, admin name3, admin code3, lat, lon, accuracy;
 *  - the CSV republication (header `country_code,zipcode,place,state,state_code,province,…`).
 * Plain or gzip.
 */
import { readTextLines, splitCsv, parsePosition } from './lines.ts';
import { emptyBatch, type SourceBatch } from '../source-types.ts';

export async function readGeonamesPostcodes(path: string): Promise<SourceBatch> {
  const b = emptyBatch();
  let csvHeader: Map<string, number> | undefined;
  let first = true;
  for await (const line of readTextLines(path)) {
    if (!line) continue;
    if (first) {
      first = false;
      if (line.startsWith('country_code,')) {
        csvHeader = new Map(line.split(',').map((n, i) => [n, i]));
        continue;
      }
    }
    if (csvHeader) {
      const f = splitCsv(line);
      const g = (n: string) => f[csvHeader!.get(n) ?? -1] ?? '';
      const at = parsePosition(g('latitude'), g('longitude'));
      if (!at) continue;
      b.postcodes.push({
        country: g('country_code'), code: g('zipcode'), place: g('place'), state: g('state'),
        stateCode: g('state_code'), county: g('province'), ...at,
      });
    } else {
      const f = line.split('\t');
      if (f.length < 11) continue;
      const at = parsePosition(f[9], f[10]);
      if (!at) continue;
      b.postcodes.push({
        country: f[0]!, code: f[1]!, place: f[2]!, state: f[3]!, stateCode: f[4]!, county: f[5]!, ...at,
      });
    }
  }
  return b;
}
