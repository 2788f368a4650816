/**
 * CSV records as a record format: decode (UTF-8 checked, or a single-byte encoding), split into
 * fields, build the request element from the bound columns; each output row is the input's
 * fields unchanged, the result keys, then error code and message (empty on success). A record
 * that cannot be read (bad bytes, bad quoting, more fields than the header) keeps its columns and
 * gets its error in the two error columns.
 */
import { errorBody, type ErrorBody } from '../../../contract/errors.ts';
import { EXPLAIN_CSV_KEYS, EXPLAIN_KEY, explainCsvCells, isExplanation } from '../../../contract/explain.ts';
import { decodeBytes } from '../../../csv/decode.ts';
import { parseFields } from '../../../csv/fields.ts';
import { csvCell, type CsvWriteOptions } from '../../../csv/writer.ts';
import type { CsvTaskSpec, RawTask } from './batch-task.ts';
import { NOT_A_RECORD, type RecordFormat } from './record-format.ts';

export class CsvFormat implements RecordFormat {
  readonly label = 'Record';
  readonly lineEnd: string;
  error: ErrorBody | undefined;
  /** The row last rendered (without its line end). */
  private lastRow = '';
  private readonly task: RawTask;
  private readonly spec: CsvTaskSpec;
  private readonly o: CsvWriteOptions;
  private readonly buf: Buffer;
  /** The result columns of a rejected row, empty. */
  private readonly emptyResult: string;
  /** The input columns of a reader error slot, empty. */
  private readonly blankInput: string;
  /** The current record's input columns, as written in its output row. */
  private input = '';

  constructor(task: RawTask, spec: CsvTaskSpec) {
    this.task = task;
    this.spec = spec;
    this.o = spec.out;
    this.lineEnd = spec.out.newline;
    this.buf = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
    this.emptyResult = this.o.delimiter.repeat(spec.resultKeys.length);
    this.blankInput = this.o.delimiter.repeat(Math.max(0, spec.columns - 1));
  }

  read(i: number): unknown {
    const spec = this.spec;
    const o = this.o;
    const pos = this.task.positions[i];
    const d = decodeBytes(this.buf, this.task.bounds[2 * i]!, this.task.bounds[2 * i + 1]!, spec.encoding);
    const p = parseFields(d.text, spec.delimiter);
    const fields = p.fields;
    const extra = fields.length > spec.columns;
    // A well-formed row of the header's width, written with the same delimiter, is copied as it
    // was read (its quoting is valid CSV as it stands); any other is rewritten field by field.
    const verbatim = !o.excel && o.delimiter === spec.delimiter && fields.length === spec.columns && !p.badQuoting;
    while (fields.length < spec.columns) fields.push('');
    if (extra) fields.length = spec.columns;
    this.input = verbatim ? d.text : cells(fields, o);
    if (d.invalid) {
      return this.notARecord(`Record ${pos}: not valid UTF-8 (for a Windows-1252 or Latin-1 export, use --encoding).`);
    }
    if (p.badQuoting) {
      return this.notARecord(`Record ${pos}: bad quoting (a quoted field must be closed, and followed by a delimiter or the line end).`);
    }
    if (extra) return this.notARecord(`Record ${pos}: more fields than the header's ${spec.columns}.`);
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
    return element;
  }

  private notARecord(message: string): typeof NOT_A_RECORD {
    this.error = errorBody('INVALID_PARAMETER', message);
    return NOT_A_RECORD;
  }

  readerError(_i: number): void {
    this.input = this.blankInput;
  }

  outputRow(record: Record<string, unknown>): string {
    const o = this.o;
    let row = this.input;
    // --explain: the explanation's two cells (the result keys then end with EXPLAIN_CSV_KEYS)
    const explain = record[EXPLAIN_KEY];
    const cells = explain !== undefined && isExplanation(explain) ? explainCsvCells(explain) : undefined;
    for (const k of this.spec.resultKeys) {
      const v = cells && k === EXPLAIN_CSV_KEYS[0] ? cells[0] : cells && k === EXPLAIN_CSV_KEYS[1] ? cells[1] : record[k];
      row += o.delimiter + (v === undefined || v === null ? '' : csvCell(String(v), o));
    }
    row += o.delimiter + o.delimiter;
    this.lastRow = row;
    return row;
  }

  /** What a job report shows: the row with its line end, as written. */
  get shown(): string {
    return this.lastRow + this.o.newline;
  }

  errorRow(i: number, e: ErrorBody, separate: boolean): string {
    const o = this.o;
    const tail = `${csvCell(String(e.errorcode), o)}${o.delimiter}${csvCell(e.errormessage, o)}`;
    const row = separate
      ? `${this.task.positions[i]}${o.delimiter}${this.input}${o.delimiter}${tail}`
      : `${this.input}${this.emptyResult}${o.delimiter}${tail}`;
    this.lastRow = row;
    return row;
  }

  inputText(i: number): string {
    return decodeBytes(this.buf, this.task.bounds[2 * i]!, this.task.bounds[2 * i + 1]!, this.spec.encoding).text;
  }
}

function cells(values: readonly string[], o: CsvWriteOptions): string {
  let s = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) s += o.delimiter;
    s += csvCell(values[i]!, o);
  }
  return s;
}
