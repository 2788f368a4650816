/**
 * The engine pool's worker entry point. It opens the shared address index once (a view over the
 * SharedArrayBuffer the main thread passed in workerData, never a copy) and then runs batches.
 */
import { workerData } from 'node:worker_threads';
import { runTask, type WorkerState } from '../src/pool/run-task.ts';
import type { EngineTask } from '../src/pool/tasks.ts';
import { openIndex } from '../src/engine/index/index.ts';

const data = workerData as { indexBuffer?: SharedArrayBuffer } | undefined;
const state: WorkerState = {
  ctx: data?.indexBuffer ? { index: openIndex(data.indexBuffer) } : {},
};

export default function run(task: EngineTask) {
  return runTask(state, task);
}
