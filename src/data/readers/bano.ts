/**
 * BANO CSV (OpenStreetMap France, https://bano.openstreetmap.fr/data/lisezmoi-csv.txt):
 * `id,numero,voie,code_post,nom_comm,source,lat,lon`, no header, plain or gzip. (The official
 * BAN file, `;`-separated with a header, has its own reader, readers/ban.ts.) Streams every row
 * into the sink; rows it cannot use are counted per reason.
 */
import { readTextLines, splitCsv, parsePosition } from './lines.ts';
import type { AddressPoint } from '../source-types.ts';
import type { ReaderProgress, SourceSink } from '../source-sink.ts';

export async function readBano(path: string, sink: SourceSink, progress?: ReaderProgress): Promise<void> {
  const a: AddressPoint = { country: 'FR', street: '', housenumber: '', postcode: '', city: '', district: '', lat: 0, lon: 0 };
  for await (const line of readTextLines(path, progress)) {
    if (!line) continue;
    const f = splitCsv(line);
    if (f.length < 8) { sink.reject('short-row'); continue; }
    const at = parsePosition(f[6], f[7]);
    if (!at) { sink.reject(f[6] || f[7] ? 'bad-coordinates' : 'no-coordinates'); continue; }
    if (!f[2]) { sink.reject('no-street'); continue; }
    if (!f[1]) { sink.reject('no-housenumber'); continue; }
    a.street = f[2]; a.housenumber = f[1]; a.postcode = f[3] ?? ''; a.city = f[4] ?? '';
    a.lat = at.lat; a.lon = at.lon;
    sink.address(a);
  }
}
