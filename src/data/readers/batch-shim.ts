/**
 * Bridges between whole-batch readers and the streaming SourceSink contract:
 *  - `fromBatchReader` wraps a reader that still returns a SourceBatch (the OSM PBF and
 *    OpenAddresses readers until their streaming rewrites land) so the orchestrator can treat
 *    every format alike; the batch is replayed into the sink and dropped;
 *  - `collectingSink` gathers what a streaming reader emits into a batch (tests, small files).
 */
import { statSync } from 'node:fs';
import { emptyBatch, type SourceBatch } from '../source-types.ts';
import type { SourceReader, SourceSink } from '../source-sink.ts';

export function fromBatchReader(read: (path: string) => Promise<SourceBatch>): SourceReader {
  return async (path, sink, progress) => {
    const b = await read(path);
    for (const a of b.admins) sink.admin(a);
    for (const p of b.places) sink.place(p);
    for (const p of b.postcodes) sink.postcode(p);
    for (const l of b.lines) sink.line(l);
    for (const a of b.addresses) sink.address(a);
    const size = statSync(path).size;
    progress?.(size, size);
  };
}

export function collectingSink(): { sink: SourceSink; batch: SourceBatch; rejected: Record<string, number> } {
  const batch = emptyBatch();
  const rejected: Record<string, number> = {};
  const sink: SourceSink = {
    address: (a) => { batch.addresses.push({ ...a }); },
    line: (l) => { batch.lines.push({ ...l }); },
    place: (p) => { batch.places.push({ ...p }); },
    postcode: (p) => { batch.postcodes.push({ ...p }); },
    admin: (a) => { batch.admins.push({ ...a }); },
    reject: (r) => { rejected[r] = (rejected[r] ?? 0) + 1; },
  };
  return { sink, batch, rejected };
}
