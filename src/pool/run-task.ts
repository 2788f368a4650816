/**
 * What a worker does with one task. Kept apart from the worker file so that it can also run
 * in-process (tests, `--workers 0`) with exactly the same behaviour.
 */
import { errorBody } from '../contract/errors.ts';
import { renderError, renderWithId } from '../contract/render-json.ts';
import { processElement, type EngineContext } from '../engine/process.ts';
import type { ElementsResult, EngineTask, RawResult, RawTask, RecordSummary } from './tasks.ts';

const UNIT_LABEL = { line: 'Line', element: 'Element', offset: 'Offset' } as const;

export interface WorkerState {
  ctx: EngineContext;
}

export function runTask(state: WorkerState, task: EngineTask): ElementsResult | RawResult {
  if (task.kind === 'elements') {
    return { outcomes: task.elements.map((e) => processElement(task.op, e, state.ctx)) };
  }
  return runRaw(state, task);
}

function runRaw(state: WorkerState, task: RawTask): RawResult {
  const n = task.texts.length;
  const lines = new Array<string>(n);
  const summaries = new Array<RecordSummary>(n);
  const readerErrors = task.readerErrors ? new Map(task.readerErrors) : undefined;
  for (let i = 0; i < n; i++) {
    const readerError = readerErrors?.get(i);
    if (readerError !== undefined) {
      const e = errorBody('INVALID_PARAMETER', readerError);
      lines[i] = renderError(undefined, e);
      summaries[i] = { ok: false, chargeable: false, code: e.errorcode, matchlevel: '' };
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(task.texts[i]!);
    } catch (err) {
      const e = errorBody('INVALID_PARAMETER', `${UNIT_LABEL[task.unit]} ${task.positions[i]}: not valid JSON (${(err as Error).message}).`);
      lines[i] = renderError(undefined, e);
      summaries[i] = { ok: false, chargeable: false, code: e.errorcode, matchlevel: '' };
      continue;
    }
    const id = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as { id?: unknown }).id : undefined;
    const out = processElement(task.op, parsed, state.ctx);
    if (out.ok) {
      lines[i] = renderWithId(id, out.record);
      const rec = out.record as { addresslinestatuscode?: number; matchlevel?: string };
      summaries[i] = {
        ok: true,
        chargeable: out.chargeable,
        code: rec.addresslinestatuscode ?? 0,
        matchlevel: rec.matchlevel ?? '',
      };
    } else {
      lines[i] = renderError(id, out.error);
      summaries[i] = { ok: false, chargeable: false, code: out.error.errorcode, matchlevel: '' };
    }
  }
  return { lines, summaries };
}
