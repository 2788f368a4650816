/**
 * Work the SQLite store's thread runs just before a charge commits (`StepWork`, store.ts): an HTTP
 * single lookup, run on the thread where its charge commits, so that the request crosses one
 * thread boundary instead of two (issue 20). The module is named by URL, so that the billing
 * layer imports nothing of what it runs; the thread loads it once, when it starts.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ResourceLimits } from 'node:worker_threads';

/** What the store's thread is told to load. */
export interface ThreadWork {
  /** URL of a module exporting `createWorkState(data)` and `runWork(state, task)` (WorkModule). */
  module: string;
  /** What `createWorkState` starts from (structured-cloned to the thread; a SharedArrayBuffer is shared). */
  data: unknown;
  /** V8 limits of the thread, those of the work (an engine thread's). */
  resourceLimits?: ResourceLimits;
}

/** What a work's record is: its result, and whether it is charged. */
export interface WorkDone {
  result: unknown;
  chargeable: boolean;
}

export interface WorkModule<S = unknown> {
  createWorkState(data: unknown): S;
  /** Never throws for a record's own defect: that is the record's result (e.g. a 500 outcome), not chargeable. */
  runWork(state: S, task: unknown): WorkDone;
}

/** The work loaded on the thread (synchronously: the thread's calls keep their order). */
export function loadWork(work: ThreadWork): (task: unknown) => WorkDone {
  const mod = createRequire(import.meta.url)(fileURLToPath(work.module)) as WorkModule;
  const state = mod.createWorkState(work.data);
  return (task) => mod.runWork(state, task);
}
