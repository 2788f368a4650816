/**
 * Runs a streaming reader (SourceReader) into a SourceBatch, for the builder that still takes
 * whole batches, with its counts; and the rule every address source follows: yielding no address
 * at all is an error that names the file and says why (the reject counts per reason).
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

/** "no-coordinates 12, short-row 3", most frequent first. */
export function describeRejects(counts: SourceCounts): string {
  const e = Object.entries(counts.rejected).sort((x, y) => y[1] - x[1]);
  return e.length ? e.map(([k, v]) => `${k} ${v.toLocaleString('en')}`).join(', ') : 'none';
}

/** Throws when an address source gave no address, naming the file and the reasons. */
export function requireAddresses(kind: string, path: string, counts: SourceCounts): void {
  if (counts.addresses > 0) return;
  const rejected = Object.values(counts.rejected).reduce((s, n) => s + n, 0);
  throw new Error(rejected === 0
    ? `${kind} source ${path} yielded 0 addresses: it has no data rows`
    : `${kind} source ${path} yielded 0 addresses: all ${rejected.toLocaleString('en')} rows were rejected (${describeRejects(counts)})`);
}
