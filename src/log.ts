import pino, { type Logger, type LoggerOptions } from 'pino';

/**
 * Every secret field the service ever sees. pino removes them before a log line is written,
 * wherever they sit in the logged object (request bodies, job options, account rows).
 */
export const REDACTED_PATHS = [
  'license', 'guid', 'password', 'secret',
  '*.license', '*.guid', '*.password', '*.secret',
  '*.*.license', '*.*.guid',
  'req.headers.authorization', 'req.body.license', 'req.body.guid',
  'options.license', 'options.guid', 'db', '*.db', 'dbUrl', '*.dbUrl',
  // Kafka connection secrets (SASL password, TLS key passphrase) wherever a connection is logged
  '*.*.password', 'passphrase', '*.passphrase', '*.*.passphrase',
  // an answer's explanation (explain=1) repeats the input: personal data, never logged
  'explain', '*.explain', '*.*.explain',
];

export function loggerOptions(extra: LoggerOptions = {}): LoggerOptions {
  return {
    level: process.env.ADDRFLOW_LOG_LEVEL ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    base: { pid: process.pid, app: 'addrflow' },
    ...extra,
  };
}

/** Logs go to stderr (fd 2), never into data output on stdout. */
export function createLogger(extra: LoggerOptions = {}): Logger {
  return pino(loggerOptions(extra), pino.destination({ fd: 2, sync: false }));
}

export type { Logger };
