/**
 * Between the spec's objects and the Avro records of schemas/*.avsc.
 *
 * Requests need no mapping: an Avro request record has the spec's parameter names, `null` for an
 * absent optional value, and goes straight into `validateElement(op, value)` like a JSON element.
 * Results do: the spec's result object is either a record (the spec's keys, plus `requestid` /
 * `availablecredits` when asked for) or an error body; the Avro result holds them as
 * `{ record, error, requestid, availablecredits }` with exactly one of record/error set.
 */
import { isErrorBody } from '../../../contract/errors.ts';
import { EXPLAIN_KEY, isExplanation, type Explanation } from '../../../contract/explain.ts';
import type { Op } from '../../../contract/params.ts';
import { AVAILABLE_CREDITS_KEY, RECORD_KEYS, REQUEST_ID_KEY } from '../../../contract/records.ts';
import { SUBJECTS, type KnownSubject } from './schemas.ts';

export const REQUEST_SUBJECT: Readonly<Record<Op, KnownSubject>> = { search: SUBJECTS.searchRequest, lines: SUBJECTS.linesRequest };
export const RESULT_SUBJECT: Readonly<Record<Op, KnownSubject>> = { search: SUBJECTS.searchResult, lines: SUBJECTS.linesResult };

/** The op a request subject stands for, or undefined for any other subject. */
export function opOfRequestSubject(subject: string): Op | undefined {
  if (subject === SUBJECTS.searchRequest) return 'search';
  if (subject === SUBJECTS.linesRequest) return 'lines';
  return undefined;
}

export interface AvroResult {
  record: Record<string, unknown> | null;
  error: { errorcode: number; errormessage: string } | null;
  requestid: string | null;
  availablecredits: string | null;
  /** search-result v2 only (consume --explain); a v1 record read as v2 has null. */
  explain?: Explanation | null;
}

/**
 * The writer version of a result: search-result v2 when the result carries an explanation
 * (consume --explain), else v1, the default every v1 reader reads, whatever newer versions exist.
 */
export function resultVersion(op: Op, result: Record<string, unknown>): number {
  return op === 'search' && result[EXPLAIN_KEY] !== undefined ? 2 : 1;
}

function optionalString(v: unknown): string | null {
  return v === undefined || v === null ? null : String(v);
}

/** A spec result object (record or error body) → the Avro result record of `op`. */
export function resultToAvro(op: Op, result: Record<string, unknown>): AvroResult {
  if (isErrorBody(result)) {
    return { record: null, error: { errorcode: result.errorcode, errormessage: result.errormessage }, requestid: null, availablecredits: null };
  }
  const record: Record<string, unknown> = {};
  for (const k of RECORD_KEYS[op]) record[k] = result[k];
  const out: AvroResult = {
    record, error: null,
    requestid: optionalString(result[REQUEST_ID_KEY]),
    availablecredits: optionalString(result[AVAILABLE_CREDITS_KEY]),
  };
  const explain = result[EXPLAIN_KEY];
  if (op === 'search' && isExplanation(explain)) out.explain = explain;
  return out;
}

/** The Avro result record → the spec's object (keys in spec order; optional keys only when set). */
export function resultFromAvro(op: Op, avro: AvroResult): Record<string, unknown> {
  if (avro.error) return { errorcode: avro.error.errorcode, errormessage: avro.error.errormessage };
  const out: Record<string, unknown> = {};
  for (const k of RECORD_KEYS[op]) out[k] = avro.record?.[k];
  if (avro.requestid !== null) out[REQUEST_ID_KEY] = avro.requestid;
  if (avro.availablecredits !== null) out[AVAILABLE_CREDITS_KEY] = avro.availablecredits;
  if (avro.explain) out[EXPLAIN_KEY] = avro.explain;
  return out;
}
