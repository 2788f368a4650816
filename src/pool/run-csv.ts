/**
 * A batch of raw CSV records in a worker: decode (UTF-8 checked, or a single-byte encoding),
 * split into fields, build the request element from the bound columns, run the engine, and write
 * one output row per record: the input's fields unchanged, the result keys, then error code and
 * message (empty on success). A record that cannot be read (bad bytes, bad quoting, more fields
 * than the header) keeps its columns and gets its error in the two error columns.
 */
import { ReportFactsBuilder } from './report-facts.ts';
import { ERRORS, errorBody, type ErrorBody } from '../contract/errors.ts';
import { processElement } from '../engine/process.ts';
import { decodeBytes } from '../csv/decode.ts';
import { parseFields } from '../csv/fields.ts';
import { csvCell, type CsvWriteOptions } from '../csv/writer.ts';
import type { WorkerState } from './run-task.ts';
import { CHARGEABLE, MATCHLEVELS, OK, UNREADABLE, type CsvTaskSpec, type RawResult, type RawTask } from './tasks.ts';

const MATCHLEVEL_CODE = new Map<string, number>(MATCHLEVELS.map((m, i) => [m, i]));

function cells(values: readonly string[], o: CsvWriteOptions): string {
  let s = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) s += o.delimiter;
    s += csvCell(values[i]!, o);
  }
  return s;
}

export function runCsvRaw(state: WorkerState, task: RawTask & { csv: CsvTaskSpec }): RawResult {
  const spec = task.csv;
  const o = spec.out;
  const n = task.positions.length;
  const buf = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  const flags = new Uint8Array(n);
  const codes = new Uint16Array(n);
  const matchlevels = new Uint8Array(n);
  const readerErrors = task.readerErrors ? new Map(task.readerErrors) : undefined;
  const emptyResult = o.delimiter.repeat(spec.resultKeys.length);
  let out = '';
  let err = '';
  // --report: per-row facts and the rows to show, with the row as read as their input
  const facts = task.report
    ? new ReportFactsBuilder(n, task.report, (i) => decodeBytes(buf, task.bounds[2 * i]!, task.bounds[2 * i + 1]!, spec.encoding).text)
    : undefined;

  const reject = (i: number, input: string, e: ErrorBody, request?: Record<string, string>): void => {
    codes[i] = e.errorcode;
    const tail = `${csvCell(String(e.errorcode), o)}${o.delimiter}${csvCell(e.errormessage, o)}${o.newline}`;
    const row = task.separateErrors ? `${task.positions[i]}${o.delimiter}${input}${o.delimiter}${tail}` : `${input}${emptyResult}${o.delimiter}${tail}`;
    if (task.separateErrors) err += row;
    else out += row;
    if (facts) {
      facts.rejected(i, request);
      facts.keepOutput(i, row);
    }
  };
  const blankInput = o.delimiter.repeat(Math.max(0, spec.columns - 1));

  for (let i = 0; i < n; i++) {
    const pos = task.positions[i];
    const readerError = readerErrors?.get(i);
    if (readerError !== undefined) {
      reject(i, blankInput, errorBody('INVALID_PARAMETER', readerError));
      flags[i] = UNREADABLE;
      continue;
    }
    const d = decodeBytes(buf, task.bounds[2 * i]!, task.bounds[2 * i + 1]!, spec.encoding);
    const p = parseFields(d.text, spec.delimiter);
    const fields = p.fields;
    const extra = fields.length > spec.columns;
    // A well-formed row of the header's width, written with the same delimiter, is copied as it
    // was read (its quoting is valid CSV as it stands); any other is rewritten field by field.
    const verbatim = !o.excel && o.delimiter === spec.delimiter && fields.length === spec.columns && !p.badQuoting;
    while (fields.length < spec.columns) fields.push('');
    if (extra) fields.length = spec.columns;
    const input = verbatim ? d.text : cells(fields, o);
    if (d.invalid) {
      reject(i, input, errorBody('INVALID_PARAMETER', `Record ${pos}: not valid UTF-8 (for a Windows-1252 or Latin-1 export, use --encoding).`));
      flags[i] = UNREADABLE;
      continue;
    }
    if (p.badQuoting) {
      reject(i, input, errorBody('INVALID_PARAMETER', `Record ${pos}: bad quoting (a quoted field must be closed, and followed by a delimiter or the line end).`));
      flags[i] = UNREADABLE;
      continue;
    }
    if (extra) {
      reject(i, input, errorBody('INVALID_PARAMETER', `Record ${pos}: more fields than the header's ${spec.columns}.`));
      flags[i] = UNREADABLE;
      continue;
    }
    const element: Record<string, string> = {};
    for (const [param, cols] of spec.bindings) {
      let v: string;
      if (cols.length === 1) v = fields[cols[0]!]!;
      else {
        v = '';
        for (const c of cols) {
          const f = fields[c]!.trim();
          if (f) v = v ? `${v} ${f}` : f;
        }
      }
      // An empty cell is an absent parameter, not an empty one (which the table may refuse).
      if (v.trim() !== '') element[param] = v;
    }
    let r;
    try {
      r = processElement(task.op, element, state.ctx);
    } catch (x) {
      reject(i, input, errorBody('INTERNAL', `Record ${pos}: ${ERRORS.INTERNAL.message} (${(x as Error).message})`), element);
      continue;
    }
    if (!r.ok) {
      reject(i, input, r.error, element);
      continue;
    }
    const rec = r.record as Record<string, unknown>;
    let row = input;
    for (const k of spec.resultKeys) {
      const v = rec[k];
      row += o.delimiter + (v === undefined || v === null ? '' : csvCell(String(v), o));
    }
    row += o.delimiter + o.delimiter + o.newline;
    out += row;
    if (facts) {
      facts.processed(i, element, rec);
      facts.keepOutput(i, row);
    }
    flags[i] = OK | (r.chargeable ? CHARGEABLE : 0);
    codes[i] = (rec.addresslinestatuscode as number | undefined) ?? 0;
    matchlevels[i] = MATCHLEVEL_CODE.get((rec.matchlevel as string | undefined) ?? '') ?? 0;
  }
  const result: RawResult = { output: out, errors: err, flags, codes, matchlevels };
  if (facts) result.report = facts.take();
  return result;
}
