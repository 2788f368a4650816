/**
 * Every coded error of addrflow (`ADDR_ERR_*`), defined once (fastify's FST_ERR_* style), with its
 * HTTP status where it has one, the exit code where it ends a command, and the text of "when" it
 * happens. Adapters and commands raise and render these; none re-words them.
 * docs/errors.md and the README's exit-code table are generated from this module
 * (scripts/gen-errors-doc.ts; test/docs/errors-doc.test.ts fails when they drift).
 *
 * Adding an error is one entry: in ERRORS (answered over HTTP), START_ERRORS (stops a command) or
 * BUILD_ERRORS (`addrflow index build`); then run `node scripts/gen-errors-doc.ts`.
 */
import {
  EXIT_CREDITS, EXIT_INDEX, EXIT_INPUT, EXIT_INTERNAL, EXIT_KAFKA, EXIT_LISTEN, EXIT_LOCKED, EXIT_NO_ACCOUNT, EXIT_OUTPUT,
  EXIT_REFUSED, EXIT_STORE, EXIT_TLS_FILE, EXIT_TOO_MANY_REJECTED, EXIT_UNREADABLE_ROWS, EXIT_USAGE,
} from './exit-codes.ts';

/** What every coded error says about itself; the docs are generated from these fields. */
export interface CodedErrorDef {
  /** Stable machine name, for logs, stderr lines and docs. */
  readonly code: string;
  /** HTTP status, where the error is an answer (also the body's `errorcode`). */
  readonly status?: number;
  /** Process exit code, where the error ends a command (src/contract/exit-codes.ts). */
  readonly exit?: number;
  /** When it happens, for docs/errors.md (Markdown). */
  readonly when: string;
}

export interface ErrorDef extends CodedErrorDef {
  readonly status: number;
  /** Default message (a specific one may be given when the error is raised). */
  readonly message: string;
}

function def(code: string, status: number, message: string, when: string, exit?: number): ErrorDef {
  return Object.freeze({ code, status, message, when, ...(exit !== undefined ? { exit } : {}) });
}

export const ERRORS = Object.freeze({
  UNAUTHORIZED: def('ADDR_ERR_UNAUTHORIZED', 401, 'License key and/or GUID is missing, invalid or inactive.',
    '`license` and/or `guid` missing or empty, or no active account matches them; `run` and `consume` stop before any work', EXIT_REFUSED),
  INSUFFICIENT_CREDITS: def('ADDR_ERR_INSUFFICIENT_CREDITS', 402, 'The credit quota is exceeded; more credits are needed.',
    'price × records to process exceeds the balance; nothing runs, nothing is charged (a `run` job stops at a record boundary: top up, then `--resume`)', EXIT_CREDITS),
  AGREEMENT_MISSING: def('ADDR_ERR_AGREEMENT_MISSING', 403, 'Not all required agreements of the function were accepted.',
    'the account has not accepted the agreement of the function (`search`, `lines`)', EXIT_REFUSED),
  NOT_FOUND: def('ADDR_ERR_NOT_FOUND', 404, 'The request path in combination with the request method does not exist.',
    'unknown path, whatever the method'),
  METHOD_NOT_ALLOWED: def('ADDR_ERR_METHOD_NOT_ALLOWED', 405, 'The request method is not allowed for the requested path.',
    'a method other than POST on `/address/search` or `/address/lines` (`Allow: POST`)'),
  // 413 and 415 are not in the spec's table: HTTP-level refusals of a body the service cannot read
  // (too large; not UTF-8 form encoding). See docs/http.md.
  PAYLOAD_TOO_LARGE: def('ADDR_ERR_PAYLOAD_TOO_LARGE', 413, 'The request body is too large.',
    "HTTP only, not in the spec's table: the body is over the server's limit (default 32 MiB, `serve --body-limit`)"),
  UNSUPPORTED_MEDIA_TYPE: def('ADDR_ERR_UNSUPPORTED_MEDIA_TYPE', 415, 'The request body must be application/x-www-form-urlencoded in UTF-8.',
    "HTTP only, not in the spec's table: a body that is not `application/x-www-form-urlencoded` or not UTF-8 (see docs/http.md)"),
  INVALID_PARAMETER: def('ADDR_ERR_INVALID_PARAMETER', 412, 'At least one given parameter is invalid (for example data type or length).',
    "a parameter of the wrong type, a length or value outside the spec's table, a value outside the allowed list, a record that is not a JSON object or not JSON at all; malformed credentials stop `run` and `consume`", EXIT_REFUSED),
  MISSING_PARAMETER: def('ADDR_ERR_MISSING_PARAMETER', 428, 'At least one mandatory parameter is missing or has an empty value.',
    'a mandatory parameter (`countrycode`, `sendercountrycode`; `batch` in batch mode) missing or empty'),
  // 409 is not in the spec's table: an `Idempotency-Key` reused for another request, or whose first
  // request is still running (see docs/http.md).
  IDEMPOTENCY_CONFLICT: def('ADDR_ERR_IDEMPOTENCY_CONFLICT', 409, 'This Idempotency-Key belongs to another request, or its first request is still running.',
    "HTTP only, not in the spec's table: an `Idempotency-Key` already used by this account for a different request, or whose first request is still running after 30 s (see docs/http.md)"),
  INTERNAL: def('ADDR_ERR_INTERNAL', 500, 'An unexpected condition ended the request.',
    'an unexpected condition, an engine failure included; over HTTP the body is empty (in a batch: an error element), in a file job an error record, on Kafka a DLQ record with this code; never charged. A command that fails unexpectedly prints `addrflow CMD: ADDR_ERR_INTERNAL: <message> (set ADDRFLOW_DEBUG=1 for the stack)`', EXIT_INTERNAL),
  MAINTENANCE: def('ADDR_ERR_MAINTENANCE', 503, 'The service is in maintenance mode and will be available later.',
    'maintenance mode is on'),
  // Not in the spec's table: the billing store (PostgreSQL) cannot be reached. Same status and body
  // shape as maintenance, so clients retry it the same way (docs/http.md, "Outages").
  STORE_UNAVAILABLE: def('ADDR_ERR_STORE_UNAVAILABLE', 503, 'The service is temporarily unavailable and will be available later.',
    "not in the spec's table: the billing store (PostgreSQL) cannot be reached within its 5 s timeout — stopped, crashed, connection cut, TLS or login refused (docs/http.md, \"Outages\"); nothing is charged; retry later. At the start of a command: exit 6, the line gives the driver's reason (`connect ECONNREFUSED …`, a TLS verification failure, …)", EXIT_STORE),
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

/** An error that ends a command: its exit code is required. */
export interface StartErrorDef extends CodedErrorDef {
  readonly exit: number;
}

/**
 * Errors that stop a command (before it starts work, or a job at a boundary): no HTTP status,
 * one line on stderr (`addrflow CMD: CODE: message`) and the exit code of their entry
 * (src/contract/exit-codes.ts). docs/errors.md, "Commands", lists them in this order.
 */
export const START_ERRORS = Object.freeze({
  USAGE: { code: 'ADDR_ERR_USAGE', exit: EXIT_USAGE, when: 'an unknown command, subcommand or flag, a missing flag, a bad value (`--workers abc`, `--port 99999`, `--op lookup`): the line names the flag and what it got, then the usage is printed' },
  INDEX_MISSING: { code: 'ADDR_ERR_INDEX_MISSING', exit: EXIT_INDEX, when: '`--index DIR` has no readable `index.bin`' },
  INDEX_TRUNCATED: { code: 'ADDR_ERR_INDEX_TRUNCATED', exit: EXIT_INDEX, when: '`index.bin` is shorter than its header, table of contents or sections say (an interrupted copy or download)' },
  INDEX_VERSION: { code: 'ADDR_ERR_INDEX_VERSION', exit: EXIT_INDEX, when: '`index.bin` has another format version than this build reads: rebuild it with `addrflow index build`' },
  INDEX_CORRUPT: { code: 'ADDR_ERR_INDEX_CORRUPT', exit: EXIT_INDEX, when: 'not an addrflow index (wrong magic) or a damaged table of contents' },
  STORE_CONFIG: { code: 'ADDR_ERR_STORE_CONFIG', exit: EXIT_STORE, when: 'the `--db` URL cannot work: not `sqlite:`/`postgres://`, unparseable, a bad schema name, `sslmode=prefer`/`allow`, `verify-ca`/`verify-full` without `sslrootcert`, a SQLite file that cannot be opened' },
  STORE_FULL: { code: 'ADDR_ERR_STORE_FULL', exit: EXIT_STORE, when: 'the billing store cannot be written at start: its device is full (SQLite `SQLITE_FULL`, PostgreSQL `53100`); free space where the store lives' },
  OUTPUT_UNWRITABLE: { code: 'ADDR_ERR_OUTPUT_UNWRITABLE', exit: EXIT_OUTPUT, when: 'an output cannot be written: `--output`, `--errors`, `--report` or `index build --out` in a missing or read-only directory, a full device (`ENOSPC`), a reader that closed the pipe (`EPIPE`), an I/O error; a `run` job with `--output FILE` is resumable (free space, then `--resume`)' },
  INPUT_UNREADABLE: { code: 'ADDR_ERR_INPUT_UNREADABLE', exit: EXIT_INPUT, when: '`--input` cannot be read: missing, a directory, no permission, a read error' },
  // Kafka at start (`consume`, `topics`): the same codes whichever client runs the worker
  KAFKA_UNREACHABLE: { code: 'ADDR_ERR_KAFKA_UNREACHABLE', exit: EXIT_KAFKA, when: '`consume`, `topics`: no broker of `--brokers` answered within 30 s (the line gives the last reason: `connect ECONNREFUSED …`, a timeout), or the TLS handshake failed (unknown CA, wrong name: reported at once)' },
  KAFKA_TOPIC_MISSING: { code: 'ADDR_ERR_KAFKA_TOPIC_MISSING', exit: EXIT_KAFKA, when: '`consume`, `topics check`: a topic (input, results, ledger, DLQ) does not exist; the line names them and the `addrflow topics create …` command that creates them (or `consume --create-topics`). Both Kafka clients answer the same' },
  KAFKA_TOPIC_SETTINGS: { code: 'ADDR_ERR_KAFKA_TOPIC_SETTINGS', exit: EXIT_KAFKA, when: '`topics create`/`check`, `consume --create-topics`: an existing topic has settings that can break the pipeline — fewer partitions than `--partitions`, fewer replicas than asked, `cleanup.policy=compact`, `unclean.leader.election.enable=true`, `min.insync.replicas` below 2 when replicated — or the replication factor is above the brokers\' count. Existing topics are never altered' },
  // a refused SASL login (or mutual-TLS certificate, or an ACL) is refused credentials, like a refused license
  KAFKA_AUTH: { code: 'ADDR_ERR_KAFKA_AUTH', exit: EXIT_REFUSED, when: '`consume`, `topics`: the cluster refused the credentials — a SASL login (wrong user or password), a mutual-TLS client certificate, or an ACL; like a refused license, exit 4' },
  // a TLS/certificate/key/secret file that cannot be read or is not valid, Kafka and PostgreSQL alike
  TLS_FILE: { code: 'ADDR_ERR_TLS_FILE', exit: EXIT_TLS_FILE, when: 'a TLS CA, certificate or key file cannot be read or is not valid: `sslrootcert`, `sslcert`, `sslkey` in the `--db` URL; a Kafka TLS CA, certificate or key file or the SASL password file (not valid PEM, the key not the certificate\'s, a wrong passphrase); the line names the file, the reason (`ENOENT`, `EACCES`, …) and the flag or variable that sets it' },
  LISTEN: { code: 'ADDR_ERR_LISTEN', exit: EXIT_LISTEN, when: 'a server cannot listen: `serve --port` or `consume --metrics-port` is in use (`EADDRINUSE`), not allowed (`EACCES`) or the host is not an address of this machine (`EADDRNOTAVAIL`)' },
  ACCOUNT_NOT_FOUND: { code: 'ADDR_ERR_ACCOUNT_NOT_FOUND', exit: EXIT_NO_ACCOUNT, when: '`addrflow accounts topup|show|agree|disable`: no account matches the `--account`, `--guid` or `--license` given' },
  // A file job's output, checkpoint, errors or report file is held by another live job (src/adapters/file/lock.ts).
  OUTPUT_LOCKED: { code: 'ADDR_ERR_OUTPUT_LOCKED', exit: EXIT_LOCKED, when: '`run`: another live job holds the lock (`FILE.lock`) on this job\'s output, checkpoint, `--errors` or `--report` file; the line names the file and the holder\'s pid and start time. Nothing was written, truncated or charged. Wait for that job or stop it; a lock left by a dead process (or one whose pid another process now has) is taken over by itself (`src/adapters/file/lock.ts`)' },
  // The lock beside such a file cannot be created (no such directory, no permission, read-only).
  LOCK_UNWRITABLE: { code: 'ADDR_ERR_LOCK_UNWRITABLE', exit: EXIT_OUTPUT, when: '`run`: the lock beside one of those files cannot be created (the directory does not exist, no permission, a read-only device); nothing was written' },
  // A file job's end, not its start: every readable row was done, but some rows could not be read
  // (without --max-rejected); or more of them than --max-rejected, stopped at a record boundary.
  ROWS_UNREADABLE: { code: 'ADDR_ERR_ROWS_UNREADABLE', exit: EXIT_UNREADABLE_ROWS, when: '`run` finished every readable row, but N rows could not be read as a record (a line or element that is not JSON, an NDJSON line that is not a JSON object, not UTF-8, bad CSV quoting, more fields than the header, a slot the reader rejected); the line names N, the first row numbers and `--max-rejected N`, which accepts them (exit 0). Not at start: at the end of a job' },
  TOO_MANY_REJECTED: { code: 'ADDR_ERR_TOO_MANY_REJECTED', exit: EXIT_TOO_MANY_REJECTED, when: '`run --max-rejected N` met more than N unreadable rows over the whole job: it stopped at the start of the batch holding the row past N, with a checkpoint; `--resume` with a higher N continues, byte-for-byte as an uninterrupted run' },
} as const satisfies Record<string, StartErrorDef>);

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

/**
 * Errors of `addrflow index build`: a source that cannot be read or yields nothing ends the
 * build (exit code 8, the input cannot be used); the OSM PBF reader's errors say what is wrong
 * with a `.osm.pbf` file and reach the operator inside ADDR_ERR_INDEX_SOURCE_UNREADABLE.
 */
export const BUILD_ERRORS = Object.freeze({
  SOURCE_EMPTY: { code: 'ADDR_ERR_INDEX_SOURCE_EMPTY', exit: EXIT_INPUT, when: 'an address source (`--osm`, `--bano`, `--ban`, `--openaddresses`) yielded 0 addresses; the message gives the rows rejected per reason, e.g. a BAN `;` file given to `--bano`: `yielded 0 addresses as bano (rows rejected: 2 short-row)`' },
  SOURCE_UNREADABLE: { code: 'ADDR_ERR_INDEX_SOURCE_UNREADABLE', exit: EXIT_INPUT, when: 'a source file is missing, or its reader failed (not gzip, not PBF, … — for a PBF the OSM code below is named)' },
  OSM_PBF_BAD_FRAME: { code: 'ADDR_ERR_OSM_PBF_BAD_FRAME', when: 'not an OSM PBF (bad block header length), an empty file, data before the `OSMHeader` block, or a file whose header says `Sort.Type_then_ID` while its blocks are out of order (`osmium sort` fixes it)' },
  OSM_PBF_TRUNCATED: { code: 'ADDR_ERR_OSM_PBF_TRUNCATED', when: 'the file ends inside a block (an interrupted download)' },
  OSM_PBF_UNSUPPORTED: { code: 'ADDR_ERR_OSM_PBF_UNSUPPORTED', when: 'the header requires a feature the reader does not implement (`HistoricalInformation`: a history file), or a blob is LZMA/bzip2-compressed' },
  OSM_PBF_BAD_BLOB: { code: 'ADDR_ERR_OSM_PBF_BAD_BLOB', when: 'a block that does not inflate or decode (damaged file)' },
} as const satisfies Record<string, CodedErrorDef>);

export type BuildErrorName = keyof typeof BUILD_ERRORS;

/**
 * Codes of a Kafka record value that cannot be decoded (input) or encoded (output): the record
 * goes to the DLQ with the code and the reason in its headers (docs/kafka-values.md); it is never
 * dropped and never blocks its partition. The codec raises them (src/adapters/kafka/avro/errors.ts).
 */
export const VALUE_ERRORS = Object.freeze({
  DECODE_EMPTY: { code: 'ADDR_DECODE_EMPTY', when: 'a null or zero-length value (e.g. a tombstone)' },
  DECODE_UNKNOWN_FORMAT: { code: 'ADDR_DECODE_UNKNOWN_FORMAT', when: 'the first bytes are neither Avro single-object (`C3 01`), Confluent (`00`) nor a JSON object' },
  DECODE_TRUNCATED_HEADER: { code: 'ADDR_DECODE_TRUNCATED_HEADER', when: 'an Avro header that ends before its fingerprint or schema id' },
  DECODE_UNKNOWN_FINGERPRINT: { code: 'ADDR_DECODE_UNKNOWN_FINGERPRINT', when: 'single-object encoding with the fingerprint of no schema in `schemas/*.avsc`' },
  DECODE_UNKNOWN_SCHEMA_ID: { code: 'ADDR_DECODE_UNKNOWN_SCHEMA_ID', when: 'Confluent wire format with a schema id that no configured schema version carries (`--registry-ids`)' },
  DECODE_CORRUPT_AVRO: { code: 'ADDR_DECODE_CORRUPT_AVRO', when: 'the Avro body does not decode with the writer schema (truncated, trailing bytes, bad union index…)' },
  DECODE_UNEXPECTED_SCHEMA: { code: 'ADDR_DECODE_UNEXPECTED_SCHEMA', when: 'a valid record of a schema this consumer does not accept (e.g. a result on the input topic)' },
  DECODE_INVALID_JSON: { code: 'ADDR_DECODE_INVALID_JSON', when: 'a value that starts like JSON but does not parse' },
  DECODE_JSON_NOT_OBJECT: { code: 'ADDR_DECODE_JSON_NOT_OBJECT', when: 'valid JSON that is not an object (array, string, number…)' },
  DECODE_UNKNOWN_OP: { code: 'ADDR_DECODE_UNKNOWN_OP', when: 'a JSON value whose `op` is missing or unknown (worker without `--op`), or differs from the worker\'s `--op`' },
  ENCODE_UNKNOWN_SUBJECT: { code: 'ADDR_ENCODE_UNKNOWN_SUBJECT', when: 'a result or ledger entry for a schema subject the codec does not know (a bug: reported as an internal error, never written)' },
  ENCODE_INVALID_VALUE: { code: 'ADDR_ENCODE_INVALID_VALUE', when: 'a result or ledger entry that does not fit its Avro schema (a bug: reported as an internal error, never written)' },
} as const satisfies Record<string, CodedErrorDef>);

/** Every coded error, by table, for the docs and for the uniqueness test. */
export const ERROR_TABLES = Object.freeze({ http: ERRORS, start: START_ERRORS, build: BUILD_ERRORS, value: VALUE_ERRORS });

/** The definition of a code (`ADDR_ERR_…`), whichever table holds it. */
export function findError(code: string): CodedErrorDef | undefined {
  for (const table of Object.values(ERROR_TABLES)) {
    for (const d of Object.values(table) as CodedErrorDef[]) if (d.code === code) return d;
  }
  return undefined;
}
