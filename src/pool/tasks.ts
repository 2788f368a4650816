/**
 * The messages between the pool (main thread) and the engine workers. Plain data only: they are
 * structured-cloned across the thread boundary.
 */
import type { Op } from '../contract/params.ts';
import type { Outcome } from '../engine/process.ts';

/** Parsed elements in, outcome objects back (HTTP batches: the adapter renders JSON or XML). */
export interface ElementsTask {
  kind: 'elements';
  op: Op;
  elements: unknown[];
}

/**
 * Raw JSON text of one record each in, finished NDJSON lines back (file and stream jobs: the
 * main thread only splits and writes, all parsing and stringifying happens in the workers).
 */
export interface RawTask {
  kind: 'raw';
  op: Op;
  texts: string[];
  /** Where each text came from, for error messages (1-based line or element number). */
  positions: number[];
  /** What a position counts: lines of an NDJSON file, elements of a JSON array, stream offsets. */
  unit: 'line' | 'element' | 'offset';
  /** Slots the reader already found unusable: [index, message]; they become error records. */
  readerErrors?: Array<[number, string]>;
}

export type EngineTask = ElementsTask | RawTask;

export interface ElementsResult {
  outcomes: Outcome[];
}

/** What billing and progress reporting need to know of a record, without re-parsing the output. */
export interface RecordSummary {
  /** Processed by the engine (false: rejected by validation or unparseable). */
  ok: boolean;
  chargeable: boolean;
  /** HTTP-style error code for rejected records, lines status code or 0 for processed ones. */
  code: number;
  /** Search only: the matchlevel, '' otherwise. */
  matchlevel: string;
}

export interface RawResult {
  /** One JSON text per input record, in input order, without a trailing newline. */
  lines: string[];
  summaries: RecordSummary[];
}
