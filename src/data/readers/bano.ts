/**
 * BANO CSV (OpenStreetMap France, https://bano.openstreetmap.fr/data/lisezmoi-csv.txt):
 * `id,numero,voie,code_post,nom_comm,source,lat,lon`, no header, plain or gzip (by content). (The official
 * BAN file, `;`-separated with a header, has its own reader, readers/ban.ts.) Streams every row
 * into the sink; rows it cannot use are counted per reason.
 */
import { readCsvFile } from '../../csv/reader.ts';
import { parsePosition } from './lines.ts';
import type { AddressPoint } from '../source-types.ts';
import type { ReaderProgress, SourceSink } from '../source-sink.ts';

export async function readBano(path: string, sink: SourceSink, progress?: ReaderProgress): Promise<void> {
  const a: AddressPoint = { country: 'FR', street: '', housenumber: '', postcode: '', city: '', district: '', lat: 0, lon: 0 };
  // The shared CSV reader (src/csv): a stray quote costs its own row (`unclosed-quote`, with its
  // line in the build summary), not the rows after it.
  await readCsvFile(path, { delimiter: ',', header: false, ...(progress ? { progress } : {}) }, {
    onRow(f) {
      if (f.length < 8) return sink.reject('short-row');
      const at = parsePosition(f[6], f[7]);
      if (!at) return sink.reject(f[6] || f[7] ? 'bad-coordinates' : 'no-coordinates');
      if (!f[2]) return sink.reject('no-street');
      if (!f[1]) return sink.reject('no-housenumber');
      a.street = f[2]; a.housenumber = f[1]; a.postcode = f[3] ?? ''; a.city = f[4] ?? '';
      a.lat = at.lat; a.lon = at.lon;
      sink.address(a);
    },
    onProblem(problem, _record, line) {
      sink.reject(problem, line);
    },
  });
}
