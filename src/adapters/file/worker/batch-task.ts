/**
 * A file job's batch as a pool task, and what comes back: the messages between the job (main
 * thread) and the file-batch handler in the workers (src/adapters/file/worker/run-file-batch.ts).
 * Plain data only: they are structured-cloned across the thread boundary, and the large byte
 * buffers are transferred.
 */
import type { Op } from '../../../contract/params.ts';
import type { ElementDefaults } from '../../../contract/validate.ts';
import type { CsvEncoding } from '../../../csv/decode.ts';
import type { CsvWriteOptions } from '../../../csv/writer.ts';

/** The task kind workers/engine.ts dispatches to the file-batch handler. */
export const FILE_BATCH = 'file-batch';

/**
 * Raw records in, finished output text back (file jobs): the main thread only splits and
 * writes; decoding, parsing, the engine and rendering all happen in the workers.
 */
export interface RawTask {
  kind: typeof FILE_BATCH;
  op: Op;
  /** The records' bytes back to back; record i is bytes[bounds[2i], bounds[2i+1]). */
  bytes: Uint8Array;
  bounds: Uint32Array;
  /** Where each record came from, for error messages (1-based line or element number). */
  positions: number[];
  /** What a position counts: lines of an NDJSON file, elements of a JSON array, CSV records. */
  unit: 'line' | 'element' | 'record';
  /** Slots the reader already found unusable: [index, message]; they become error records. */
  readerErrors?: Array<[number, string]>;
  /** The job's values for records that do not give their own (`--prefer-country`). */
  defaults?: ElementDefaults;
  /**
   * When set, rejected records go to `errors` (one JSON line each, with `{"<unit>": position}`
   * first, or one CSV row with the record number first) instead of their slot in `output`.
   */
  separateErrors?: boolean;
  /** CSV records (unit 'record'): how to read them and write their output rows. */
  csv?: CsvTaskSpec;
  /** Compress the output / errors text of this batch as one gzip member each (resumable .gz). */
  gzip?: { output: boolean; errors: boolean };
  /**
   * When set (a job with --report), the result carries `report`: per-record facts, the batch's
   * `rows` lowest-ranked processed records with rank ≤ `rankAtMost`, and its first `rejected`
   * rejected records, with their input.
   */
  report?: { rows: number; rankAtMost: number; rejected: number };
  /** --explain: each search record carries its explanation; without it no record does (whatever its own `explain` key says). */
  explain?: boolean;
}

/**
 * A CSV batch's reading and writing rules, decided on the main thread from the header row.
 * Output rows are the input's fields, then the result keys, then error code and message.
 */
export interface CsvTaskSpec {
  delimiter: string;
  encoding: CsvEncoding;
  /** Fields in the header row. */
  columns: number;
  /** Request parameter ← input columns (several are joined with a space). */
  bindings: Array<[param: string, columns: number[]]>;
  /** The op's record keys, in the spec's order, one output column each. */
  resultKeys: readonly string[];
  out: CsvWriteOptions;
}

// Per-record flags of a raw result (`RawResult.flags`), one bit each; the job imports them from here.
/** The engine processed the record (its answer is in its slot). */
export const OK = 1;
/** The record is charged when the job is metered. */
export const CHARGEABLE = 2;
/**
 * The reader or the record format could not read the bytes as a record: a reader error slot, a
 * CSV row with bad quoting or more fields than the header, a CSV row or NDJSON line that is not
 * valid UTF-8, an NDJSON line that is not JSON or not a JSON object. Such a record still gets its
 * 412 error record, in its slot or in --errors; the bit only tells it apart from a record that
 * was read and refused by validation.
 */
export const UNREADABLE = 4;

/** Matchlevels, coded for the summary arrays (0 = none). */
export const MATCHLEVELS = ['', 'housenumber', 'street', 'general'] as const;

export interface RawResult {
  /**
   * Output lines or rows, in input order (each ends with its line end), as UTF-8 bytes written
   * in the worker (./utf8-out.ts) over a buffer of their own: moved back to the main thread, not
   * copied, and written there as they are. With `gzip.output`, one gzip member of that text.
   */
  output: Uint8Array;
  /** Lines or rows for the errors file (with `separateErrors`), the same way; else empty. */
  errors: Uint8Array;
  /** Which of `output` / `errors` hold a gzip member (task.gzip, and the text was not empty). */
  gzipped?: { output: boolean; errors: boolean };
  /** Per record: OK | CHARGEABLE | UNREADABLE bits. */
  flags: Uint8Array;
  /** Per record: HTTP-style error code when rejected, lines status code (or 0) when processed. */
  codes: Uint16Array;
  /** Per record: index into MATCHLEVELS. */
  matchlevels: Uint8Array;
  /** With `task.report`: what the job report needs of each record (./report-facts.ts). */
  report?: RawReportFacts;
}

export interface RawReportFacts {
  /** Per record: search relevance 0..100; 255 = none. */
  relevance: Uint8Array;
  /** Per record: ISO 3166-1 alpha-2 code as (c0 << 8 | c1); 0 = unknown. */
  country: Uint16Array;
  /** Per record: the answered point of a search; NaN = none. */
  lat: Float32Array;
  lon: Float32Array;
  /** Rows for the report: [index in batch, rank (-1 = rejected), input text, output line]. */
  rows: Array<[number, number, string, string]>;
}
