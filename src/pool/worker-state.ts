/**
 * What a thread that runs the engine holds between tasks: the shared address index, opened once
 * as a view over the SharedArrayBuffer the main thread passed (never a copy). The pool's threads
 * make it (workers/engine.ts), and so does the SQLite store's thread when it runs HTTP single
 * lookups (src/adapters/http/single-work.ts).
 */
import { openIndex } from '../engine/index/index.ts';
import type { WorkerState } from './tasks.ts';

export function createWorkerState(indexBuffer: SharedArrayBuffer | undefined): WorkerState {
  return { ctx: indexBuffer ? { index: openIndex(indexBuffer) } : {} };
}
