/**
 * Runs a streaming reader (SourceReader) into a whole SourceBatch with its counts: for tests and
 * tools that look at what a reader emits. The index build never does this: it streams.
 */
import { countingSink, type SourceCounts, type SourceReader, type SourceSink } from '../source-sink.ts';
import { emptyBatch, type SourceBatch } from '../source-types.ts';

export async function collectSource(reader: SourceReader, path: string): Promise<{ batch: SourceBatch; counts: SourceCounts }> {
  const b = emptyBatch();
  // Readers may reuse the object they pass: keep copies.
  const inner: SourceSink = {
    address: (a) => b.addresses.push({ ...a, ...(a.altCities ? { altCities: [...a.altCities] } : {}) }),
    line: (l) => b.lines.push({ ...l }),
    place: (p) => b.places.push({ ...p }),
    postcode: (p) => b.postcodes.push({ ...p }),
    admin: (a) => b.admins.push({ ...a }),
    reject: () => {},
  };
  const { sink, counts } = countingSink(inner);
  await reader(path, sink);
  return { batch: b, counts };
}
