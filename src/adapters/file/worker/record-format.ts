/**
 * What the one record loop (./record-loop.ts) needs to know of a file format: how to read a
 * record's bytes into a request element, and how to render its output row or its error row.
 * NDJSON lines and JSON-array elements (./json-format.ts) and CSV records (./csv-format.ts).
 *
 * A format object is made per batch and holds the current record (the one last read): its id or
 * its input columns, which its rows repeat. That keeps the hot loop free of per-record objects.
 */
import type { ErrorBody } from '../../../contract/errors.ts';

/** `read` answers this when the bytes are not a record (the UNREADABLE flag); `error` says why. */
export const NOT_A_RECORD: unique symbol = Symbol('not a record');

export interface RecordFormat {
  /** What a position counts, in messages: 'Line', 'Element' or 'Record'. */
  readonly label: string;
  /** Reads record i: its request element, or NOT_A_RECORD with `error` set. */
  read(i: number): unknown;
  /** Why the record last read is not a record (a 412 body). */
  readonly error: ErrorBody | undefined;
  /** Record i is a slot the reader could not make a record of: it becomes the current record, with no input. */
  readerError(i: number): void;
  /**
   * What ends every row ('\n', or a CSV output's line end): written by the loop after each row as
   * bytes, so that a row is encoded as it was rendered, never concatenated once more.
   */
  readonly lineEnd: string;
  /** The current record's output row for the engine's answer (without its line end). */
  outputRow(record: Record<string, unknown>): string;
  /** The current record's error row (without its line end): in its output slot, or (`separate`) for the errors file, position first. */
  errorRow(i: number, e: ErrorBody, separate: boolean): string;
  /** What a job report shows as the output of the row last rendered. */
  readonly shown: string;
  /** Record i's input as text (for the few rows a job report keeps). */
  inputText(i: number): string;
}
