/**
 * The one per-record loop of a file job's batch, in a worker: read each record with the batch's
 * format, run the engine, render its output row or its error row, and fill the per-record
 * summaries (flags, codes, matchlevels) and, with --report, the report's facts. The format
 * (./record-format.ts) is the only thing NDJSON, JSON arrays and CSV differ in.
 */
import { ERRORS, errorBody, type ErrorBody } from '../../../contract/errors.ts';
import { processElement } from '../../../engine/process.ts';
import type { WorkerState } from '../../../pool/tasks.ts';
import { CHARGEABLE, MATCHLEVELS, OK, UNREADABLE, type RawResult, type RawTask } from './batch-task.ts';
import { NOT_A_RECORD, type RecordFormat } from './record-format.ts';
import { ReportFactsBuilder } from './report-facts.ts';
import { Utf8Out } from './utf8-out.ts';

const MATCHLEVEL_CODE = new Map<string, number>(MATCHLEVELS.map((m, i) => [m, i]));

/** The size of this thread's last batch output: the next one's buffer starts there. */
let lastOutputBytes = 1 << 16;

export function runRecords(state: WorkerState, task: RawTask, format: RecordFormat): RawResult {
  const n = task.positions.length;
  const flags = new Uint8Array(n);
  const codes = new Uint16Array(n);
  const matchlevels = new Uint8Array(n);
  const readerErrors = task.readerErrors ? new Map(task.readerErrors) : undefined;
  const separate = task.separateErrors === true;
  const lineEnd = format.lineEnd;
  const out = new Utf8Out(lastOutputBytes + (lastOutputBytes >> 3));
  let err: Utf8Out | undefined;
  // --report: per-record facts and the rows to show, with the record as read as their input
  const facts = task.report ? new ReportFactsBuilder(n, task.report, (i) => format.inputText(i)) : undefined;

  const reject = (i: number, e: ErrorBody, request?: unknown): void => {
    codes[i] = e.errorcode;
    const row = format.errorRow(i, e, separate);
    if (separate) (err ??= new Utf8Out(1024)).addLine(row, lineEnd);
    else out.addLine(row, lineEnd);
    if (facts) {
      facts.rejected(i, request);
      facts.keepOutput(i, format.shown);
    }
  };

  for (let i = 0; i < n; i++) {
    const readerError = readerErrors?.get(i);
    if (readerError !== undefined) {
      format.readerError(i);
      flags[i] = UNREADABLE;
      reject(i, errorBody('INVALID_PARAMETER', readerError));
      continue;
    }
    const element = format.read(i);
    if (element === NOT_A_RECORD) {
      flags[i] = UNREADABLE;
      reject(i, format.error!);
      continue;
    }
    let r;
    try {
      r = processElement(task.op, element, state.ctx, task.defaults, task.explain === true);
    } catch (x) {
      // An engine defect must cost one record, not the job: the record gets a 500 in its slot.
      reject(i, errorBody('INTERNAL', `${format.label} ${task.positions[i]}: ${ERRORS.INTERNAL.message} (${(x as Error).message})`), element);
      continue;
    }
    if (!r.ok) {
      reject(i, r.error, element);
      continue;
    }
    const rec = r.record as Record<string, unknown>;
    out.addLine(format.outputRow(rec), lineEnd);
    if (facts) {
      facts.processed(i, element, rec);
      facts.keepOutput(i, format.shown);
    }
    flags[i] = OK | (r.chargeable ? CHARGEABLE : 0);
    codes[i] = (rec.addresslinestatuscode as number | undefined) ?? 0;
    matchlevels[i] = MATCHLEVEL_CODE.get((rec.matchlevel as string | undefined) ?? '') ?? 0;
  }
  lastOutputBytes = out.length;
  const result: RawResult = { output: out.take(), errors: err ? err.take() : new Uint8Array(0), flags, codes, matchlevels };
  if (facts) result.report = facts.take();
  return result;
}
