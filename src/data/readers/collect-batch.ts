/**
 * Bridge from a streaming SourceReader to the in-memory SourceBatch that the current IndexBuilder
 * takes. Temporary: only until the builder consumes a SourceSink itself (issue 9); it holds every
 * row, which is exactly what the streaming readers avoid.
 */
import { emptyBatch, type SourceBatch } from '../source-types.ts';
import type { ReaderProgress, SourceReader } from '../source-sink.ts';

export async function collectBatch(reader: SourceReader, path: string, progress?: ReaderProgress): Promise<SourceBatch> {
  const b = emptyBatch();
  await reader(path, {
    address: (a) => b.addresses.push(a),
    line: (l) => b.lines.push(l),
    place: (p) => b.places.push(p),
    postcode: (p) => b.postcodes.push(p),
    admin: (a) => b.admins.push(a),
    reject: () => {},
  }, progress);
  return b;
}
