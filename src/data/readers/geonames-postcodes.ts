/**
 * GeoNames postal codes, in both forms users download:
 *  - GeoNames' own dump (tab-separated, no header): country, postal code, place, admin name1,
 *    admin code1, admin name2, admin code2, admin name3, admin code3, lat, lon, accuracy;
 *  - the CSV republication (header `country_code,zipcode,place,state,state_code,province,…`).
 * Plain or gzip. Streams every row into the sink; unusable rows are counted per reason.
 */
import { readTextLines, splitCsv, parsePosition } from './lines.ts';
import type { ReaderProgress, SourceSink } from '../source-sink.ts';

export async function readGeonamesPostcodes(path: string, sink: SourceSink, progress?: ReaderProgress): Promise<void> {
  let csvHeader: Map<string, number> | undefined;
  let first = true;
  for await (const line of readTextLines(path, progress)) {
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
      if (!at) { sink.reject('bad-coordinates'); continue; }
      if (!g('zipcode')) { sink.reject('no-postcode'); continue; }
      sink.postcode({
        country: g('country_code'), code: g('zipcode'), place: g('place'), state: g('state'),
        stateCode: g('state_code'), county: g('province'), ...at,
      });
    } else {
      const f = line.split('\t');
      if (f.length < 11) { sink.reject('short-row'); continue; }
      const at = parsePosition(f[9], f[10]);
      if (!at) { sink.reject('bad-coordinates'); continue; }
      if (!f[1]) { sink.reject('no-postcode'); continue; }
      sink.postcode({
        country: f[0]!, code: f[1]!, place: f[2]!, state: f[3]!, stateCode: f[4]!, county: f[5]!, ...at,
      });
    }
  }
}
