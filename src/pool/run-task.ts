/**
 * What a worker does with one task. Kept apart from the worker file so that it can also run
 * in-process (tests, `--workers 0`) with exactly the same behaviour.
 */
import { isUtf8 } from 'node:buffer';
import { gzipSync } from 'node:zlib';
import { ERRORS, errorBody, type ErrorBody } from '../contract/errors.ts';
import { renderError, renderWithId } from '../contract/render-json.ts';
import { processElement, processValidated, type EngineContext, type Outcome } from '../engine/process.ts';
import { ReportFactsBuilder } from './report-facts.ts';
import { CHARGEABLE, MATCHLEVELS, OK, UNREADABLE, type CsvTaskSpec, type ElementsResult, type EngineTask, type RawResult, type RawTask } from './tasks.ts';
import { runCsvRaw } from './run-csv.ts';

const UNIT_LABEL = { line: 'Line', element: 'Element', record: 'Record' } as const;
const MATCHLEVEL_CODE = new Map<string, number>(MATCHLEVELS.map((m, i) => [m, i]));

export interface WorkerState {
  ctx: EngineContext;
}

export function runTask(state: WorkerState, task: EngineTask): ElementsResult | RawResult {
  if (task.kind === 'elements') {
    return { outcomes: task.elements.map((e) => processIsolated(state, task.op, e)) };
  }
  if (task.kind === 'validated') {
    return { outcomes: task.elements.map((v) => isolated(() => processValidated(task.op, v, state.ctx))) };
  }
  const r = task.csv ? runCsvRaw(state, task as RawTask & { csv: CsvTaskSpec }) : runRaw(state, task);
  return task.gzip ? gzipMembers(r, task.gzip) : r;
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

/**
 * One element, with an engine defect confined to it: the element gets a 500 outcome, its
 * neighbours in the batch are processed (and a Kafka partition is not blocked by one record).
 */
function processIsolated(state: WorkerState, op: EngineTask['op'], element: unknown): Outcome {
  return isolated(() => processElement(op, element, state.ctx));
}

function isolated(fn: () => Outcome): Outcome {
  try {
    return fn();
  } catch (x) {
    return { ok: false, error: errorBody('INTERNAL', `${ERRORS.INTERNAL.message} (${(x as Error).message})`) };
  }
}

function runRaw(state: WorkerState, task: RawTask): RawResult {
  const n = task.positions.length;
  const buf = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  const flags = new Uint8Array(n);
  const codes = new Uint16Array(n);
  const matchlevels = new Uint8Array(n);
  const readerErrors = task.readerErrors ? new Map(task.readerErrors) : undefined;
  const label = UNIT_LABEL[task.unit];
  let out = '';
  let err = '';
  const facts = task.report
    ? new ReportFactsBuilder(n, task.report, (i) => buf.toString('utf8', task.bounds[2 * i]!, task.bounds[2 * i + 1]!))
    : undefined;

  const reject = (i: number, id: unknown, e: ErrorBody, request?: unknown): void => {
    codes[i] = e.errorcode;
    const line = renderError(id, e);
    if (task.separateErrors) {
      err += `{"${task.unit}":${task.positions[i]},${line.slice(1)}\n`;
    } else {
      out += line + '\n';
    }
    if (facts) {
      facts.rejected(i, request);
      facts.keepOutput(i, line);
    }
  };

  for (let i = 0; i < n; i++) {
    const readerError = readerErrors?.get(i);
    if (readerError !== undefined) {
      reject(i, undefined, errorBody('INVALID_PARAMETER', readerError));
      flags[i] = UNREADABLE;
      continue;
    }
    const s = task.bounds[2 * i]!;
    const e = task.bounds[2 * i + 1]!;
    if (!isUtf8(buf.subarray(s, e))) {
      reject(i, undefined, errorBody('INVALID_PARAMETER', `${label} ${task.positions[i]}: not valid UTF-8.`));
      flags[i] = UNREADABLE;
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(buf.toString('utf8', s, e));
    } catch (x) {
      reject(i, undefined, errorBody('INVALID_PARAMETER', `${label} ${task.positions[i]}: not valid JSON (${(x as Error).message}).`));
      flags[i] = UNREADABLE;
      continue;
    }
    const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    const id = isObject ? (parsed as { id?: unknown }).id : undefined;
    let r;
    try {
      r = processElement(task.op, parsed, state.ctx);
    } catch (x) {
      // An engine defect must cost one record, not the job: the record gets a 500 in its slot.
      reject(i, id, errorBody('INTERNAL', `${label} ${task.positions[i]}: ${ERRORS.INTERNAL.message} (${(x as Error).message})`), parsed);
      continue;
    }
    if (!r.ok) {
      reject(i, id, r.error, parsed);
      if (!isObject) flags[i] = UNREADABLE; // JSON, but not a request element at all
      continue;
    }
    const line = renderWithId(id, r.record);
    out += line + '\n';
    if (facts) {
      facts.processed(i, parsed, r.record);
      facts.keepOutput(i, line);
    }
    const rec = r.record as { addresslinestatuscode?: number; matchlevel?: string };
    flags[i] = OK | (r.chargeable ? CHARGEABLE : 0);
    codes[i] = rec.addresslinestatuscode ?? 0;
    matchlevels[i] = MATCHLEVEL_CODE.get(rec.matchlevel ?? '') ?? 0;
  }
  const result: RawResult = { output: out, errors: err, flags, codes, matchlevels };
  if (facts) result.report = facts.take();
  return result;
}
