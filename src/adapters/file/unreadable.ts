/**
 * Unreadable rows of a file job: records the reader or the format could not read as a record
 * (flag UNREADABLE of a raw result, src/adapters/file/worker/batch-task.ts), kept apart from records the parameter
 * table refused. The job counts them; the first few are listed with their position and reason.
 *
 * The workers only set the flag. The reason of one of the first few is found here, on the main
 * thread, in what the job was going to write anyway: a reader error's message from the batch, or
 * the `errormessage` of the record's error line (NDJSON) or row (CSV). That costs one scan of a
 * batch's output, for at most FIRST_UNREADABLE_ROWS rows a job; no other row is looked at.
 */
import { gunzipSync } from 'node:zlib';
import { START_ERRORS } from '../../contract/errors.ts';
import { parseFields } from '../../csv/fields.ts';
import { RecordSplitter } from '../../csv/splitter.ts';
import type { CsvWriteOptions } from '../../csv/writer.ts';
import { OK, UNREADABLE, type RawResult } from './worker/batch-task.ts';

/** Unreadable rows listed by position and reason (summary, report, --summary-json, stderr). */
export const FIRST_UNREADABLE_ROWS = 10;
/** Row numbers named on the one coded stderr line. */
const NAMED_ON_STDERR = 5;

export interface UnreadableRow {
  /** Line (NDJSON), element (JSON array) or record (CSV, header excluded) number. */
  position: number;
  reason: string;
}

/** How a batch's error records were written, to find one again. */
export interface ErrorTextShape {
  /** Rejected records went to the errors text (--errors) instead of the output. */
  separateErrors: boolean;
  /** CSV output: rows in these options (else NDJSON lines). */
  csv?: CsvWriteOptions;
}

const UNKNOWN_REASON = 'unreadable (see its error record in the output)';

/** The number of unreadable records in a raw result (one pass over its flag bytes). */
export function countUnreadable(flags: Uint8Array): number {
  let c = 0;
  for (let i = 0; i < flags.length; i++) if (flags[i]! & UNREADABLE) c++;
  return c;
}

/** Up to `max` unreadable rows of a batch, in order, with their reasons. */
export function unreadableRows(
  result: RawResult, positions: readonly number[], readerErrors: ReadonlyArray<[number, string]> | undefined,
  shape: ErrorTextShape, max: number,
): UnreadableRow[] {
  const wanted: number[] = [];
  for (let i = 0; i < result.flags.length && wanted.length < max; i++) if (result.flags[i]! & UNREADABLE) wanted.push(i);
  if (wanted.length === 0) return [];
  const fromReader = new Map(readerErrors ?? []);
  let texts: string[] | undefined;
  const rows: UnreadableRow[] = [];
  for (const i of wanted) {
    let reason = fromReader.get(i);
    if (reason === undefined) {
      try {
        texts ??= errorTexts(result, shape);
        // With --errors, the errors text holds the rejected records only, in order.
        let k = i;
        if (shape.separateErrors) {
          k = 0;
          for (let j = 0; j < i; j++) if (!(result.flags[j]! & OK)) k++;
        }
        reason = messageOf(texts[k], shape) ?? UNKNOWN_REASON;
      } catch {
        reason = UNKNOWN_REASON;
      }
    }
    // the message names its row already ("Line 3: …"); the list gives the position apart
    rows.push({ position: positions[i]!, reason: reason.replace(/^(?:Line|Element|Record) \d+: /, '') });
  }
  return rows;
}

/** The batch's error-bearing text (output, or errors with --errors), one entry per record there. */
function errorTexts(result: RawResult, shape: ErrorTextShape): string[] {
  const bytes = shape.separateErrors ? result.errors : result.output;
  const gz = shape.separateErrors ? result.gzipped?.errors : result.gzipped?.output;
  const text = gz ? gunzipSync(bytes).toString('utf8') : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (!shape.csv) return text.split('\n');
  // CSV rows may hold quoted line breaks: split them as the reader would.
  const rows: string[] = [];
  const splitter = new RecordSplitter(shape.csv.delimiter, Number.MAX_SAFE_INTEGER);
  const emit = (buf: Buffer, start: number, end: number): void => {
    rows.push(buf.toString('utf8', start, end));
  };
  splitter.push(Buffer.from(text, 'utf8'), emit);
  splitter.end(emit);
  return rows;
}

function messageOf(text: string | undefined, shape: ErrorTextShape): string | undefined {
  if (text === undefined) return undefined;
  if (shape.csv) {
    const fields = parseFields(text, shape.csv.delimiter).fields;
    return fields[fields.length - 1] || undefined;
  }
  const m = (JSON.parse(text) as { errormessage?: unknown }).errormessage;
  return typeof m === 'string' ? m : undefined;
}

/** "line 3, line 7, line 12 and 4 more" — the first rows of a list, for one line of text. */
export function namePositions(unit: string, rows: readonly UnreadableRow[], total: number): string {
  const named = rows.slice(0, NAMED_ON_STDERR).map((r) => `${unit} ${r.position}`);
  const more = total - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

/** Exit 9's coded line: the job finished, `count` rows unreadable. */
export function unreadableRowsLine(code: string, unit: string, count: number, rows: readonly UnreadableRow[]): string {
  return `${code}: ${count} ${unit}${count === 1 ? '' : 's'} unreadable (${namePositions(unit, rows, count)}); every readable one was done`
    + ` (their errors are in the output); --max-rejected ${count} accepts them with exit code 0`;
}

/**
 * Exit 10's coded line: more unreadable rows than `limit`; stopped before the batch starting at
 * `stoppedBefore.position`, whose unreadable rows would have passed it.
 */
export function tooManyRejectedLine(
  code: string, unit: string, limit: number, done: { unreadable: number; unreadableRows: readonly UnreadableRow[] },
  stoppedBefore: { position: number; unreadable: number; rows: readonly UnreadableRow[] }, checkpoint: string | undefined,
): string {
  const seen = done.unreadable + stoppedBefore.unreadable;
  const rows = [...done.unreadableRows, ...stoppedBefore.rows];
  const next = checkpoint
    ? `run the same command with --resume and --max-rejected ${seen} or more to go on (checkpoint: ${checkpoint})`
    : 'no checkpoint (the output is stdout): run again with a higher --max-rejected';
  return `${code}: more than --max-rejected ${limit} unreadable ${unit}s (at least ${seen}: ${namePositions(unit, rows, seen)});`
    + ` stopped before ${unit} ${stoppedBefore.position}, the output holds the ${unit}s before it; ${next}`;
}

/**
 * The policy on a finished or stopped job's unreadable rows: exit 10 and its line when the job
 * stopped past --max-rejected; exit 9 and its line when it finished with unreadable rows and no
 * --max-rejected; nothing otherwise (the job's own exit code stands).
 */
export function unreadableOutcome(
  s: { end: string; format: string; unreadable: number; unreadableRows: readonly UnreadableRow[]; stoppedBefore?: { position: number; unreadable: number; rows: readonly UnreadableRow[] } | undefined },
  maxRejected: number | undefined, checkpoint: string | undefined,
): { exit: number; line: string } | undefined {
  const unit = s.format === 'array' ? 'element' : s.format === 'csv' ? 'record' : 'line';
  if (s.end === 'rejected' && s.stoppedBefore && maxRejected !== undefined) {
    const e = START_ERRORS.TOO_MANY_REJECTED;
    return { exit: e.exit, line: tooManyRejectedLine(e.code, unit, maxRejected, s, s.stoppedBefore, checkpoint) };
  }
  if (s.end === 'done' && maxRejected === undefined && s.unreadable > 0) {
    const e = START_ERRORS.ROWS_UNREADABLE;
    return { exit: e.exit, line: unreadableRowsLine(e.code, unit, s.unreadable, s.unreadableRows) };
  }
  return undefined;
}
