/**
 * Coded errors of the Kafka value codec. A record whose value cannot be decoded goes to the DLQ
 * with `code` and `reason` in its headers; it is never dropped and never blocks the partition.
 * The codes and when each happens are defined once, in src/contract/errors.ts (VALUE_ERRORS).
 */
import { VALUE_ERRORS } from '../../../contract/errors.ts';

/** The decode codes (defined in the registry, src/contract/errors.ts VALUE_ERRORS), by short name. */
export const DECODE_ERRORS = Object.freeze({
  EMPTY: VALUE_ERRORS.DECODE_EMPTY.code,
  UNKNOWN_FORMAT: VALUE_ERRORS.DECODE_UNKNOWN_FORMAT.code,
  TRUNCATED_HEADER: VALUE_ERRORS.DECODE_TRUNCATED_HEADER.code,
  UNKNOWN_FINGERPRINT: VALUE_ERRORS.DECODE_UNKNOWN_FINGERPRINT.code,
  UNKNOWN_SCHEMA_ID: VALUE_ERRORS.DECODE_UNKNOWN_SCHEMA_ID.code,
  CORRUPT_AVRO: VALUE_ERRORS.DECODE_CORRUPT_AVRO.code,
  UNEXPECTED_SCHEMA: VALUE_ERRORS.DECODE_UNEXPECTED_SCHEMA.code,
  INVALID_JSON: VALUE_ERRORS.DECODE_INVALID_JSON.code,
  JSON_NOT_OBJECT: VALUE_ERRORS.DECODE_JSON_NOT_OBJECT.code,
  UNKNOWN_OP: VALUE_ERRORS.DECODE_UNKNOWN_OP.code,
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
  UNKNOWN_SUBJECT: VALUE_ERRORS.ENCODE_UNKNOWN_SUBJECT.code,
  INVALID_VALUE: VALUE_ERRORS.ENCODE_INVALID_VALUE.code,
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
