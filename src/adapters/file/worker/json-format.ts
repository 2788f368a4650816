/**
 * NDJSON lines and JSON-array elements as a record format: each record is one JSON value, its
 * output one NDJSON line (the element's `id` first, then the record or the error body).
 */
import { isUtf8 } from 'node:buffer';
import { errorBody, type ErrorBody } from '../../../contract/errors.ts';
import { renderError, renderWithId } from '../../../contract/render-json.ts';
import { isPlainObject, validateElement } from '../../../contract/validate.ts';
import type { RawTask } from './batch-task.ts';
import { NOT_A_RECORD, type RecordFormat } from './record-format.ts';

const UNIT_LABEL = { line: 'Line', element: 'Element', record: 'Record' } as const;

export class JsonFormat implements RecordFormat {
  readonly label: string;
  readonly lineEnd = '\n';
  error: ErrorBody | undefined;
  shown = '';
  private readonly task: RawTask;
  private readonly buf: Buffer;
  /** The whole batch is valid UTF-8 (one check): then a record is, unless a character straddles its edge. */
  private readonly allUtf8: boolean;
  /** The current record's `id`, repeated in its output line. */
  private id: unknown;

  constructor(task: RawTask) {
    this.task = task;
    this.label = UNIT_LABEL[task.unit];
    this.buf = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
    this.allUtf8 = isUtf8(this.buf);
  }

  /**
   * Whether bytes [s, e) of the batch are valid UTF-8. In a batch that is valid UTF-8 as a whole,
   * a byte that is not a continuation byte (10xxxxxx) starts a character, so a record whose first
   * byte and whose following byte both are not continuation bytes holds whole characters only.
   */
  private isUtf8At(s: number, e: number): boolean {
    const b = this.buf;
    if (this.allUtf8 && (s >= b.length || (b[s]! & 0xc0) !== 0x80) && (e >= b.length || (b[e]! & 0xc0) !== 0x80)) return true;
    return isUtf8(b.subarray(s, e));
  }

  read(i: number): unknown {
    const t = this.task;
    const s = t.bounds[2 * i]!;
    const e = t.bounds[2 * i + 1]!;
    this.id = undefined;
    if (!this.isUtf8At(s, e)) {
      return this.notARecord(errorBody('INVALID_PARAMETER', `${this.label} ${t.positions[i]}: not valid UTF-8.`));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.buf.toString('utf8', s, e));
    } catch (x) {
      return this.notARecord(errorBody('INVALID_PARAMETER', `${this.label} ${t.positions[i]}: not valid JSON (${(x as Error).message}).`));
    }
    if (isPlainObject(parsed)) {
      this.id = parsed.id;
    } else if (t.unit === 'line') {
      // An NDJSON line must be one object; its error is validation's ("must be a JSON object").
      const v = validateElement(t.op, parsed);
      if (!v.ok) return this.notARecord(v.error);
    }
    // A JSON-array element that is not an object was read as an element: validation refuses it.
    return parsed;
  }

  private notARecord(e: ErrorBody): typeof NOT_A_RECORD {
    this.error = e;
    return NOT_A_RECORD;
  }

  readerError(_i: number): void {
    this.id = undefined;
  }

  outputRow(record: Record<string, unknown>): string {
    const line = renderWithId(this.id, record);
    this.shown = line;
    return line;
  }

  errorRow(i: number, e: ErrorBody, separate: boolean): string {
    const line = renderError(this.id, e);
    this.shown = line;
    return separate ? `{"${this.task.unit}":${this.task.positions[i]},${line.slice(1)}` : line;
  }

  inputText(i: number): string {
    return this.buf.toString('utf8', this.task.bounds[2 * i]!, this.task.bounds[2 * i + 1]!);
  }
}
