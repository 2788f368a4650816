/**
 * Coded errors of the Kafka value codec. A record whose value cannot be decoded goes to the DLQ
 * with `code` and `reason` in its headers; it is never dropped and never blocks the partition.
 */

export const DECODE_ERRORS = Object.freeze({
  /** Null or zero-length value (e.g. a tombstone). */
  EMPTY: 'ADDR_DECODE_EMPTY',
  /** The first bytes are neither Avro single-object (C3 01), Confluent (00) nor a JSON object. */
  UNKNOWN_FORMAT: 'ADDR_DECODE_UNKNOWN_FORMAT',
  /** An Avro header that ends before its fingerprint / schema id. */
  TRUNCATED_HEADER: 'ADDR_DECODE_TRUNCATED_HEADER',
  /** Single-object encoding with a fingerprint of no schema in schemas/*.avsc. */
  UNKNOWN_FINGERPRINT: 'ADDR_DECODE_UNKNOWN_FINGERPRINT',
  /** Confluent wire format with a schema id that no configured schema version carries. */
  UNKNOWN_SCHEMA_ID: 'ADDR_DECODE_UNKNOWN_SCHEMA_ID',
  /** The Avro body does not decode with the writer schema (truncated, trailing bytes, bad union index…). */
  CORRUPT_AVRO: 'ADDR_DECODE_CORRUPT_AVRO',
  /** A valid record of a schema this consumer does not accept (e.g. a result on the input topic). */
  UNEXPECTED_SCHEMA: 'ADDR_DECODE_UNEXPECTED_SCHEMA',
  /** Starts like JSON but does not parse. */
  INVALID_JSON: 'ADDR_DECODE_INVALID_JSON',
  /** Valid JSON that is not an object (array, string, number…). */
  JSON_NOT_OBJECT: 'ADDR_DECODE_JSON_NOT_OBJECT',
  /** A JSON value whose `op` is missing or unknown (worker without --op), or differs from the worker's --op. */
  UNKNOWN_OP: 'ADDR_DECODE_UNKNOWN_OP',
} as const);

export type DecodeErrorCode = (typeof DECODE_ERRORS)[keyof typeof DECODE_ERRORS];

export class ValueDecodeError extends Error {
  readonly code: DecodeErrorCode;
  constructor(code: DecodeErrorCode, reason: string) {
    super(reason);
    this.name = 'ValueDecodeError';
    this.code = code;
  }
  /** The human-readable reason (the message). */
  get reason(): string {
    return this.message;
  }
}

export const ENCODE_ERRORS = Object.freeze({
  UNKNOWN_SUBJECT: 'ADDR_ENCODE_UNKNOWN_SUBJECT',
  INVALID_VALUE: 'ADDR_ENCODE_INVALID_VALUE',
} as const);

export type EncodeErrorCode = (typeof ENCODE_ERRORS)[keyof typeof ENCODE_ERRORS];

export class ValueEncodeError extends Error {
  readonly code: EncodeErrorCode;
  constructor(code: EncodeErrorCode, reason: string) {
    super(reason);
    this.name = 'ValueEncodeError';
    this.code = code;
  }
}

export function isValueDecodeError(e: unknown): e is ValueDecodeError {
  return e instanceof ValueDecodeError;
}
