/**
 * A single HTTP record's engine run as work of the SQLite store's thread (src/billing/sqlite/
 * thread-work.ts): the record is run where its charge commits, in the same message, so that a
 * single `search` crosses one thread boundary instead of two (engine pool, then store thread).
 * On the 2-core bench machine a round trip to a sleeping thread costs 50–80 µs of CPU and more of
 * latency, as much as the lookup itself; measured in docs/performance.md (issue 20).
 *
 * The thread opens the same shared index as the engine pool's threads (a view, not a copy) and
 * keeps their V8 limits. `serve` gives it this work unless ADDRFLOW_HTTP_ONE_HOP=0 (for
 * comparison); a PostgreSQL store has no thread and takes the two steps.
 */
import type { Op } from '../../contract/params.ts';
import type { ValidElement } from '../../contract/validate.ts';
import type { Outcome } from '../../engine/process.ts';
import type { ThreadWork, WorkDone } from '../../billing/sqlite/thread-work.ts';
import { runValidatedElement } from '../../pool/run-validated.ts';
import type { WorkerState } from '../../pool/tasks.ts';
import { ENGINE_WORKER_RESOURCE_LIMITS } from '../../pool/worker-limits.ts';
import { createWorkerState } from '../../pool/worker-state.ts';
import { warmUp } from '../../pool/warm-up.ts';

/** One validated record, as api.ts sends it. */
export interface SingleTask {
  op: Op;
  element: ValidElement;
}

/** What `serve` gives the store's thread; it runs `warmUpMs` of made-up lookups when it starts (warm-up.ts). */
export function singleRecordWork(indexBuffer: SharedArrayBuffer | undefined, warmUpMs = 0): ThreadWork {
  return { module: import.meta.url, data: { indexBuffer, warmUpMs }, resourceLimits: ENGINE_WORKER_RESOURCE_LIMITS };
}

export function createWorkState(data: { indexBuffer?: SharedArrayBuffer; warmUpMs?: number }): WorkerState {
  const state = createWorkerState(data.indexBuffer);
  warmUp(state, ['search'], data.warmUpMs ?? 0);
  return state;
}

/** The record's outcome (an engine defect is its 500 outcome, as on a pool thread), charged when the engine says so. */
export function runWork(state: WorkerState, task: SingleTask): WorkDone {
  const outcome: Outcome = runValidatedElement(state, task.op, task.element);
  return { result: outcome, chargeable: outcome.ok && outcome.chargeable };
}
