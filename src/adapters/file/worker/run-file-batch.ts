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

/** The result's per-record arrays, moved (not copied) back to the main thread. */
export function fileBatchTransferables(r: RawResult): ArrayBuffer[] {
  const transfer = [r.flags.buffer, r.codes.buffer, r.matchlevels.buffer] as ArrayBuffer[];
  if (r.report) transfer.push(r.report.relevance.buffer as ArrayBuffer, r.report.country.buffer as ArrayBuffer, r.report.lat.buffer as ArrayBuffer, r.report.lon.buffer as ArrayBuffer);
  return transfer;
}

/**
 * The batch's output (and errors) as one gzip member each, compressed here on the worker threads
 * rather than on the main thread. A member ends at every batch end, so a resumable job can cut a
 * .gz output back to the last member its checkpoint counted and append, byte for byte.
 */
function gzipMembers(r: RawResult, gz: NonNullable<RawTask['gzip']>): RawResult {
  if (gz.output && r.output.length > 0) {
    r.outputGz = gzipSync(r.output);
    r.output = '';
  }
  if (gz.errors && r.errors.length > 0) {
    r.errorsGz = gzipSync(r.errors);
    r.errors = '';
  }
  return r;
}
