/**
 * The file-batch task's handler in a worker (registered in workers/engine.ts): the batch's
 * records through the one record loop with their format, then, for a .gz output, the batch's
 * text compressed here, on the worker threads.
 */
import { gzipSync } from 'node:zlib';
import type { WorkerState } from '../../../pool/tasks.ts';
import type { RawResult, RawTask } from './batch-task.ts';
import { CsvFormat } from './csv-format.ts';
import { JsonFormat } from './json-format.ts';
import { runRecords } from './record-loop.ts';

export function runFileBatch(state: WorkerState, task: RawTask): RawResult {
  const format = task.csv ? new CsvFormat(task, task.csv) : new JsonFormat(task);
  const r = runRecords(state, task, format);
  return task.gzip ? gzipMembers(r, task.gzip) : r;
}

/** The result's byte buffers (output, errors, per-record arrays), moved (not copied) back to the main thread. */
export function fileBatchTransferables(r: RawResult): ArrayBuffer[] {
  const transfer = [r.output.buffer, r.flags.buffer, r.codes.buffer, r.matchlevels.buffer] as ArrayBuffer[];
  // an empty errors text may share nothing worth moving (and a buffer may be listed only once)
  if (r.errors.byteLength > 0) transfer.push(r.errors.buffer as ArrayBuffer);
  if (r.report) transfer.push(r.report.relevance.buffer as ArrayBuffer, r.report.country.buffer as ArrayBuffer, r.report.lat.buffer as ArrayBuffer, r.report.lon.buffer as ArrayBuffer);
  return transfer;
}

/**
 * The batch's output (and errors) as one gzip member each, compressed here on the worker threads
 * rather than on the main thread. A member ends at every batch end, so a resumable job can cut a
 * .gz output back to the last member its checkpoint counted and append, byte for byte. An empty
 * text stays empty (no member).
 */
function gzipMembers(r: RawResult, gz: NonNullable<RawTask['gzip']>): RawResult {
  const output = gz.output && r.output.byteLength > 0;
  const errors = gz.errors && r.errors.byteLength > 0;
  if (output) r.output = owned(gzipSync(r.output));
  if (errors) r.errors = owned(gzipSync(r.errors));
  r.gzipped = { output, errors };
  return r;
}

/** A copy over an ArrayBuffer of its own (zlib's result may be a view of a larger buffer), so it can be moved. */
function owned(b: Uint8Array): Uint8Array {
  const c = new Uint8Array(b.byteLength);
  c.set(b);
  return c;
}
