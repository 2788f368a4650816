/**
 * Exit codes shared by the addrflow commands (0 success). Every coded failure maps to one of
 * these (src/contract/errors.ts, START_ERRORS); docs/errors.md and the README's table list them.
 */

/** An unexpected failure (a bug): one coded line, ADDR_ERR_INTERNAL. */
export const EXIT_INTERNAL = 1;
/** A usage error: an unknown command or flag, a bad value; the usage is printed. */
export const EXIT_USAGE = 2;

/** A metered job stopped because the account balance ran out (top up, then --resume). */
export const EXIT_CREDITS = 3;
/** The credentials were refused (401/403): nothing was processed. */
export const EXIT_REFUSED = 4;
/** The address index given (`--index DIR`) is missing, truncated, of another format version or not an index. */
export const EXIT_INDEX = 5;
/** The billing store cannot be reached at start (ADDR_ERR_STORE_UNAVAILABLE) or its URL/TLS settings are wrong (ADDR_ERR_STORE_CONFIG). */
export const EXIT_STORE = 6;
/** The output could not be written (device full, closed pipe, I/O error); a file output is resumable. */
export const EXIT_OUTPUT = 7;
/** The input cannot be read (missing, a directory, no permission, a read error). */
export const EXIT_INPUT = 8;
/** A file job finished every readable row, but some rows could not be read (unclosed quote, not JSON, …). */
export const EXIT_UNREADABLE_ROWS = 9;
/** A file job stopped at a record boundary: more unreadable rows than `--max-rejected` (checkpoint written). */
export const EXIT_TOO_MANY_REJECTED = 10;
/** Another job holds the lock on this job's output, checkpoint, errors or report file. */
export const EXIT_LOCKED = 11;
/** The Kafka cluster cannot be used at start: brokers unreachable, or a topic missing. */
export const EXIT_KAFKA = 12;
/** A TLS, certificate, key or secret file cannot be read or is not valid (Kafka and PostgreSQL alike). */
export const EXIT_TLS_FILE = 13;
/** A server cannot listen: its port is in use or not allowed. */
export const EXIT_LISTEN = 14;
/** `accounts`: no account matches the one named. */
export const EXIT_NO_ACCOUNT = 15;

/**
 * Every exit code in a phrase, in order: docs/errors.md and the README's exit-code table are
 * generated from it and from the codes' entries in src/contract/errors.ts.
 */
export const EXIT_CODE_TABLE: readonly { readonly exit: number; readonly meaning: string }[] = Object.freeze([
  { exit: 0, meaning: 'done (`serve`, `consume`: stopped by SIGTERM/SIGINT)' },
  { exit: EXIT_INTERNAL, meaning: 'an unexpected failure, a bug (`ADDRFLOW_DEBUG=1` shows its stack)' },
  { exit: EXIT_USAGE, meaning: 'usage error: an unknown command or flag, a bad value; the usage is printed' },
  { exit: EXIT_CREDITS, meaning: '`run` stopped: the balance ran out (top up, then `--resume`)' },
  { exit: EXIT_REFUSED, meaning: 'the credentials were refused; nothing was processed' },
  { exit: EXIT_INDEX, meaning: 'the `--index` is missing, truncated, of another format version or not an index' },
  { exit: EXIT_STORE, meaning: 'the billing store cannot be reached at start, or its `--db` URL is wrong' },
  { exit: EXIT_OUTPUT, meaning: 'an output cannot be written (missing or read-only directory, full device, closed pipe); `run --output FILE` is resumable' },
  { exit: EXIT_INPUT, meaning: 'an input cannot be read (`run --input`, an `index build` source)' },
  { exit: EXIT_UNREADABLE_ROWS, meaning: 'a file job finished, but some rows could not be read' },
  { exit: EXIT_TOO_MANY_REJECTED, meaning: 'a file job stopped: more unreadable rows than `--max-rejected`' },
  { exit: EXIT_LOCKED, meaning: "another job holds the lock on this job's files" },
  { exit: EXIT_KAFKA, meaning: 'Kafka cannot be used at start: brokers unreachable, a topic missing' },
  { exit: EXIT_TLS_FILE, meaning: 'a TLS certificate, key or secret file cannot be read or is not valid' },
  { exit: EXIT_LISTEN, meaning: 'a server cannot listen (port in use or not allowed)' },
  { exit: EXIT_NO_ACCOUNT, meaning: '`accounts topup|show|agree|disable`: no account matches the one named' },
  { exit: 130, meaning: 'stopped by SIGINT (`run`: `--resume` continues)' },
  { exit: 143, meaning: 'stopped by SIGTERM (`run`: `--resume` continues)' },
]);
