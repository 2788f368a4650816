/**
 * The pool's own task in a worker: validated elements to outcomes, in order, with an engine
 * defect confined to its element (it gets a 500 outcome; its neighbours in the batch are
 * processed, and a Kafka partition is not blocked by one record).
 */
import { ERRORS, errorBody } from '../contract/errors.ts';
import { processValidated, type Outcome } from '../engine/process.ts';
import type { ElementsResult, ValidatedTask, WorkerState } from './tasks.ts';

export function runValidatedTask(state: WorkerState, task: ValidatedTask): ElementsResult {
  return { outcomes: task.elements.map((v) => isolated(() => processValidated(task.op, v, state.ctx))) };
}

function isolated(fn: () => Outcome): Outcome {
  try {
    return fn();
  } catch (x) {
    return { ok: false, error: errorBody('INTERNAL', `${ERRORS.INTERNAL.message} (${(x as Error).message})`) };
  }
}
