/**
 * The messages between the pool (main thread) and its worker threads. Plain data only: they are
 * structured-cloned across the thread boundary, and large byte buffers are transferred.
 *
 * The pool knows two tasks of its own, `validated` and `warm-up`; any other kind (a file job's batch of raw
 * records) is defined by the adapter that sends it and dispatched by the worker's composition
 * root, workers/engine.ts: the pool carries it without knowing what is inside.
 */
import type { Op } from '../contract/params.ts';
import type { EngineContext, Outcome } from '../engine/process.ts';
import type { ValidElement } from '../contract/validate.ts';

/** What every task is: a kind the worker dispatches on. */
export interface PoolTask {
  kind: string;
}

/** Elements the entrance already validated (HTTP, Kafka): the engine only, no second validation. */
export interface ValidatedTask extends PoolTask {
  kind: 'validated';
  op: Op;
  elements: ValidElement[];
}

/** Made-up records run for `ms` and discarded, before a server takes requests (warm-up.ts). */
export interface WarmUpTask extends PoolTask {
  kind: 'warm-up';
  ops: Op[];
  ms: number;
}

export interface ElementsResult {
  outcomes: Outcome[];
}

/** What a worker thread holds between tasks (the same in-process, with `threads: 0`). */
export interface WorkerState {
  ctx: EngineContext;
}
