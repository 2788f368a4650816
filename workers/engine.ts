/**
 * The engine pool's worker entry point. It opens the shared address index once (a view over the
 * SharedArrayBuffer the main thread passed in workerData, never a copy) and then runs batches.
 * The per-record summary arrays of raw results travel back transferred, not copied.
 */
import { workerData } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { runTask, type WorkerState } from '../src/pool/run-task.ts';
import type { EngineTask, RawResult } from '../src/pool/tasks.ts';
import { openIndex } from '../src/engine/index/index.ts';

const data = workerData as { indexBuffer?: SharedArrayBuffer } | undefined;
const state: WorkerState = {
  ctx: data?.indexBuffer ? { index: openIndex(data.indexBuffer) } : {},
};

export default function run(task: EngineTask) {
  const result = runTask(state, task);
  if (task.kind !== 'raw') return result;
  const r = result as RawResult;
  const transfer = [r.flags.buffer, r.codes.buffer, r.matchlevels.buffer];
  if (r.report) transfer.push(r.report.relevance.buffer, r.report.country.buffer, r.report.lat.buffer, r.report.lon.buffer);
  return Piscina.move({
    [Piscina.transferableSymbol]: transfer,
    [Piscina.valueSymbol]: r,
  } as unknown as ArrayBuffer);
}
