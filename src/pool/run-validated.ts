/**
 * The pool's own task in a worker: validated elements to outcomes, in order, with an engine
 * defect confined to its element (it gets a 500 outcome; its neighbours in the batch are
 * processed, and a Kafka partition is not blocked by one record).
 */
import { ERRORS, errorBody } from '../contract/errors.ts';
import { processValidated, type Outcome } from '../engine/process.ts';
import type { Op } from '../contract/params.ts';
import type { ValidElement } from '../contract/validate.ts';
import type { ElementsResult, ValidatedTask, WorkerState } from './tasks.ts';

export function runValidatedTask(state: WorkerState, task: ValidatedTask): ElementsResult {
  return { outcomes: task.elements.map((v) => runValidatedElement(state, task.op, v)) };
}

/** One validated element to its outcome, an engine defect confined to it (a 500 outcome). */
export function runValidatedElement(state: WorkerState, op: Op, element: ValidElement): Outcome {
  try {
    return processValidated(op, element, state.ctx);
  } catch (x) {
    return { ok: false, error: errorBody('INTERNAL', `${ERRORS.INTERNAL.message} (${(x as Error).message})`) };
  }
}
