/**
 * Every error the service can answer with, defined once (fastify's FST_ERR_* style).
 * Each code carries its HTTP status and the spec's wording; adapters render it, never re-word it.
 * The table below is the single reference; docs/errors.md is generated from it by reading it.
 */
import {
  EXIT_INDEX, EXIT_KAFKA, EXIT_LOCKED, EXIT_OUTPUT, EXIT_REFUSED, EXIT_STORE, EXIT_TLS_FILE, EXIT_TOO_MANY_REJECTED,
  EXIT_UNREADABLE_ROWS,
} from './exit-codes.ts';

export interface ErrorDef {
  /** Stable machine name, for logs and docs. */
  readonly code: string;
  /** HTTP status, which is also the body's `errorcode`. */
  readonly status: number;
  /** Default message (a specific one may be given when the error is raised). */
  readonly message: string;
}

function def(code: string, status: number, message: string): ErrorDef {
  return Object.freeze({ code, status, message });
}

export const ERRORS = Object.freeze({
  UNAUTHORIZED: def('ADDR_ERR_UNAUTHORIZED', 401, 'License key and/or GUID is missing, invalid or inactive.'),
  INSUFFICIENT_CREDITS: def('ADDR_ERR_INSUFFICIENT_CREDITS', 402, 'The credit quota is exceeded; more credits are needed.'),
  AGREEMENT_MISSING: def('ADDR_ERR_AGREEMENT_MISSING', 403, 'Not all required agreements of the function were accepted.'),
  NOT_FOUND: def('ADDR_ERR_NOT_FOUND', 404, 'The request path in combination with the request method does not exist.'),
  METHOD_NOT_ALLOWED: def('ADDR_ERR_METHOD_NOT_ALLOWED', 405, 'The request method is not allowed for the requested path.'),
  // 413 and 415 are not in the spec's table: HTTP-level refusals of a body the service cannot read
  // (too large; not UTF-8 form encoding). See docs/http.md.
  PAYLOAD_TOO_LARGE: def('ADDR_ERR_PAYLOAD_TOO_LARGE', 413, 'The request body is too large.'),
  UNSUPPORTED_MEDIA_TYPE: def('ADDR_ERR_UNSUPPORTED_MEDIA_TYPE', 415, 'The request body must be application/x-www-form-urlencoded in UTF-8.'),
  INVALID_PARAMETER: def('ADDR_ERR_INVALID_PARAMETER', 412, 'At least one given parameter is invalid (for example data type or length).'),
  MISSING_PARAMETER: def('ADDR_ERR_MISSING_PARAMETER', 428, 'At least one mandatory parameter is missing or has an empty value.'),
  // 409 is not in the spec's table: an `Idempotency-Key` reused for another request, or whose first
  // request is still running (see docs/http.md).
  IDEMPOTENCY_CONFLICT: def('ADDR_ERR_IDEMPOTENCY_CONFLICT', 409, 'This Idempotency-Key belongs to another request, or its first request is still running.'),
  INTERNAL: def('ADDR_ERR_INTERNAL', 500, 'An unexpected condition ended the request.'),
  MAINTENANCE: def('ADDR_ERR_MAINTENANCE', 503, 'The service is in maintenance mode and will be available later.'),
  // Not in the spec's table: the billing store (PostgreSQL) cannot be reached. Same status and body
  // shape as maintenance, so clients retry it the same way (docs/http.md, "Outages").
  STORE_UNAVAILABLE: def('ADDR_ERR_STORE_UNAVAILABLE', 503, 'The service is temporarily unavailable and will be available later.'),
} as const);

export type ErrorName = keyof typeof ERRORS;

/** The spec's error body. */
export interface ErrorBody {
  errorcode: number;
  errormessage: string;
}

/** A coded error: thrown by adapters and billing, rendered once by each entrance. */
export class ServiceError extends Error {
  // not enumerable: a logger walking the error (pino's err serializer tags every error-like
  // property it meets) must not touch the frozen definition, which would throw
  declare readonly def: ErrorDef;
  readonly status: number;
  constructor(name: ErrorName, detail?: string) {
    const d = ERRORS[name];
    super(detail ?? d.message);
    this.name = d.code;
    Object.defineProperty(this, 'def', { value: d, enumerable: false });
    this.status = d.status;
  }
  toBody(): ErrorBody {
    return { errorcode: this.status, errormessage: this.message };
  }
}

export function errorBody(name: ErrorName, detail?: string): ErrorBody {
  return { errorcode: ERRORS[name].status, errormessage: detail ?? ERRORS[name].message };
}

export function isErrorBody(v: unknown): v is ErrorBody {
  return typeof v === 'object' && v !== null && typeof (v as ErrorBody).errorcode === 'number'
    && typeof (v as ErrorBody).errormessage === 'string';
}

/**
 * Errors that stop a command (before it starts work, or a job at a boundary): no HTTP status,
 * one line on stderr (`addrflow CMD: CODE: message`) and the exit code of their entry
 * (src/contract/exit-codes.ts). Listed in docs/errors.md.
 */
export const START_ERRORS = Object.freeze({
  INDEX_MISSING: { code: 'ADDR_ERR_INDEX_MISSING', exit: EXIT_INDEX },
  INDEX_TRUNCATED: { code: 'ADDR_ERR_INDEX_TRUNCATED', exit: EXIT_INDEX },
  INDEX_VERSION: { code: 'ADDR_ERR_INDEX_VERSION', exit: EXIT_INDEX },
  INDEX_CORRUPT: { code: 'ADDR_ERR_INDEX_CORRUPT', exit: EXIT_INDEX },
  STORE_CONFIG: { code: 'ADDR_ERR_STORE_CONFIG', exit: EXIT_STORE },
  // Kafka at start (`consume`, `topics`): the same codes whichever client runs the worker
  KAFKA_UNREACHABLE: { code: 'ADDR_ERR_KAFKA_UNREACHABLE', exit: EXIT_KAFKA },
  KAFKA_TOPIC_MISSING: { code: 'ADDR_ERR_KAFKA_TOPIC_MISSING', exit: EXIT_KAFKA },
  KAFKA_TOPIC_SETTINGS: { code: 'ADDR_ERR_KAFKA_TOPIC_SETTINGS', exit: EXIT_KAFKA },
  // a refused SASL login (or mutual-TLS certificate, or an ACL) is refused credentials, like a refused license
  KAFKA_AUTH: { code: 'ADDR_ERR_KAFKA_AUTH', exit: EXIT_REFUSED },
  // a TLS/certificate/key/secret file that cannot be read or is not valid, Kafka and PostgreSQL alike
  TLS_FILE: { code: 'ADDR_ERR_TLS_FILE', exit: EXIT_TLS_FILE },
  // A file job's output, checkpoint, errors or report file is held by another live job (src/adapters/file/lock.ts).
  OUTPUT_LOCKED: { code: 'ADDR_ERR_OUTPUT_LOCKED', exit: EXIT_LOCKED },
  // The lock beside such a file cannot be created (no such directory, no permission, read-only).
  LOCK_UNWRITABLE: { code: 'ADDR_ERR_LOCK_UNWRITABLE', exit: EXIT_OUTPUT },
  // A file job's end, not its start: every readable row was done, but some rows could not be read
  // (without --max-rejected); or more of them than --max-rejected, stopped at a record boundary.
  ROWS_UNREADABLE: { code: 'ADDR_ERR_ROWS_UNREADABLE', exit: EXIT_UNREADABLE_ROWS },
  TOO_MANY_REJECTED: { code: 'ADDR_ERR_TOO_MANY_REJECTED', exit: EXIT_TOO_MANY_REJECTED },
} as const);

export type StartErrorName = keyof typeof START_ERRORS;

export class StartError extends Error {
  readonly code: string;
  /** The process exit code this error ends a command with. */
  readonly exit: number;
  constructor(name: StartErrorName, message: string, opts?: { cause?: unknown }) {
    super(message, opts);
    this.name = START_ERRORS[name].code;
    this.code = START_ERRORS[name].code;
    this.exit = START_ERRORS[name].exit;
  }
}
