/**
 * How the PostgreSQL store connects: the `pg` pool configuration read from a `postgres://` URL
 * (timeouts, TLS after libpq's `sslmode` rules, the `?schema=` of addrflow), and which driver
 * errors mean "the database cannot be reached" (→ StoreUnavailableError, answered 503).
 *
 * TLS follows libpq (https://www.postgresql.org/docs/current/libpq-ssl.html), read from the URL or
 * from PGSSLMODE / PGSSLROOTCERT / PGSSLCERT / PGSSLKEY:
 * - `disable` (and no sslmode at all): plain TCP;
 * - `require`: TLS, certificate not checked — unless `sslrootcert` is given, which makes it
 *   `verify-ca` (libpq does the same);
 * - `verify-ca`: TLS, the server's chain must lead to `sslrootcert` (the host name is not checked);
 * - `verify-full`: as verify-ca, and the certificate must name the host of the URL;
 *   `sslrootcert=system` trusts the system's CA store instead of a file.
 * `prefer` and `allow` (try TLS, fall back to plain) cannot be done by the driver: they are
 * refused with a message rather than silently weakened or strengthened.
 * `sslcert` + `sslkey` give a client certificate.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type pg from 'pg';
import { StartError } from '../../contract/errors.ts';
import { StoreUnavailableError } from '../store.ts';

/** Default bound on opening a connection and on one statement (ms). */
export const PG_TIMEOUT_MS = 5000;
/**
 * The server cancels a statement this much sooner than the client gives up on it, so that a
 * statement slowed by a live server (a lock wait, overload) ends in a definite rollback (57014),
 * never in "the client gave up, the server committed later". The client's own timeout remains
 * for a server that answers nothing.
 */
const SERVER_MARGIN_MS = 500;
/** Bound on schema creation and migrations at start (statements there may take long on big tables). */
export const PG_INIT_TIMEOUT_MS = 10 * 60_000;

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;
const SSL_PARAMS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'ssl', 'uselibpqcompat'] as const;
export const SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

/** A database URL or TLS setting that cannot work: ADDR_ERR_STORE_CONFIG (exit code EXIT_STORE at start). */
export class PgUrlError extends StartError {
  constructor(message: string) {
    super('STORE_CONFIG', `--db: ${message}`);
  }
}

export interface PgConnection {
  /** `pg.Pool` options: the URL without addrflow's and TLS parameters, plus those as options. */
  config: pg.PoolConfig;
  /** `?schema=`, validated. */
  schema: string | undefined;
  sslmode: SslMode;
}

function readPem(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    // an unreadable certificate or key is a TLS file error (exit 13), like the Kafka TLS files
    const e = err as NodeJS.ErrnoException;
    throw new StartError('TLS_FILE', `--db: ${what} '${path}' cannot be read: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'it is a directory' : e.message}${e.code ? ` (${e.code})` : ''}`);
  }
}

/** The `ssl` option of pg for libpq's sslmode and friends (see the module comment). */
export function tlsOptions(params: {
  sslmode?: string | undefined; sslrootcert?: string | undefined; sslcert?: string | undefined; sslkey?: string | undefined;
}): { sslmode: SslMode; ssl: false | ConnectionOptions } {
  const raw = (params.sslmode ?? 'disable').toLowerCase();
  if (raw === 'prefer' || raw === 'allow') {
    throw new PgUrlError(`sslmode=${raw} is not supported (the driver cannot fall back between TLS and plain connections); use sslmode=disable, require, verify-ca or verify-full`);
  }
  if (!(SSL_MODES as readonly string[]).includes(raw)) {
    throw new PgUrlError(`unknown sslmode '${raw}'; use disable, require, verify-ca or verify-full`);
  }
  let mode = raw as SslMode;
  if (mode === 'disable') return { sslmode: mode, ssl: false };
  const ssl: ConnectionOptions = {};
  if (params.sslcert || params.sslkey) {
    if (!params.sslcert || !params.sslkey) throw new PgUrlError('a client certificate needs both sslcert and sslkey');
    ssl.cert = readPem(params.sslcert, 'sslcert');
    ssl.key = readPem(params.sslkey, 'sslkey');
  }
  const root = params.sslrootcert;
  if (root === 'system' && mode !== 'verify-full') {
    throw new PgUrlError('sslrootcert=system needs sslmode=verify-full (as in libpq)');
  }
  if (root && root !== 'system') ssl.ca = readPem(root, 'sslrootcert');
  if (mode === 'require' && root) mode = 'verify-ca'; // libpq: a root certificate makes require verify the chain
  if ((mode === 'verify-ca' || mode === 'verify-full') && !root) {
    throw new PgUrlError(`sslmode=${mode} needs sslrootcert=FILE (the CA that signed the server's certificate) or, for verify-full, sslrootcert=system`);
  }
  if (mode === 'require') {
    ssl.rejectUnauthorized = false;
  } else {
    ssl.rejectUnauthorized = true;
    if (mode === 'verify-ca') ssl.checkServerIdentity = () => undefined;
  }
  return { sslmode: mode, ssl };
}

/** Reads a `postgres://` URL into pool options. Throws PgUrlError on a bad schema name or TLS setting. */
export function pgConnection(url: string, opts: { max?: number; timeoutMs?: number } = {}): PgConnection {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new PgUrlError('the PostgreSQL URL cannot be parsed (postgres://user[:password]@host[:port]/database[?sslmode=…])');
  }
  const schema = u.searchParams.get('schema') ?? undefined;
  u.searchParams.delete('schema');
  if (schema !== undefined && !IDENT.test(schema)) throw new PgUrlError(`invalid schema name '${schema}'`);
  if (schema?.startsWith('pg_')) throw new PgUrlError(`invalid schema name '${schema}': PostgreSQL reserves names that start with pg_`);
  const p = (k: string, env: string): string | undefined => u.searchParams.get(k) ?? (process.env[env] || undefined);
  if (u.searchParams.has('ssl') && !u.searchParams.has('sslmode')) {
    throw new PgUrlError("use sslmode=require|verify-ca|verify-full instead of 'ssl=' in the database URL");
  }
  const { sslmode, ssl } = tlsOptions({
    sslmode: p('sslmode', 'PGSSLMODE'), sslrootcert: p('sslrootcert', 'PGSSLROOTCERT'),
    sslcert: p('sslcert', 'PGSSLCERT'), sslkey: p('sslkey', 'PGSSLKEY'),
  });
  for (const k of SSL_PARAMS) u.searchParams.delete(k);
  // libpq's connect_timeout (seconds) overrides the default bound on opening a connection
  const ct = u.searchParams.get('connect_timeout');
  u.searchParams.delete('connect_timeout');
  const timeoutMs = opts.timeoutMs ?? PG_TIMEOUT_MS;
  const connectMs = ct !== null && /^\d+$/.test(ct) && Number(ct) > 0 ? Number(ct) * 1000 : timeoutMs;
  return {
    schema,
    sslmode,
    config: {
      connectionString: u.toString(),
      max: opts.max ?? 10,
      ssl,
      // an outage is answered within these bounds instead of hanging (docs/http.md, "Outages")
      connectionTimeoutMillis: connectMs,
      query_timeout: timeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      // a SET after connecting rather than a startup parameter: poolers (PgBouncer) refuse unknown ones
      onConnect: (client: pg.ClientBase) => client.query(`SET statement_timeout = ${Math.max(100, timeoutMs - SERVER_MARGIN_MS)}`) as unknown as void,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    },
  };
}

/** Node socket errors that mean the server is gone or unreachable. */
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
/**
 * SQLSTATEs of an unavailable server: class 08 (connection exception), 57P01 admin_shutdown,
 * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up / shutting down / recovering),
 * 53300 too_many_connections, class 28 (the server refused the login: pg_hba, password),
 * 3D000 (the database does not exist), 57014 query_canceled (our statement_timeout: the
 * statement was rolled back).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|57014|53300|28...|3D000)$/;
/**
 * TLS failures: the certificate does not verify or does not name the host, or the server has no
 * TLS. For a caller these are an unreachable store too (a rotated certificate, a moved server);
 * at start the CLI prints the cause in one line.
 */
const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|SELF_SIGNED_CERT|DEPTH_ZERO_SELF_SIGNED_CERT|HOSTNAME_MISMATCH)/;
const TLS_MESSAGES = /The server does not support SSL connections/;
/** pg's own messages for a connection that ended or did not open in time. */
const PG_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Connection terminated due to connection timeout/i;

/** Whether a driver error means "the database cannot be reached right now" (retrying later may work). */
export function isUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  if (err instanceof StoreUnavailableError) return true;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NET_CODES.has(e.code) || UNAVAILABLE_STATES.test(e.code) || TLS_CODES.test(e.code))) return true;
  if (typeof e.message === 'string' && (PG_MESSAGES.test(e.message) || TLS_MESSAGES.test(e.message))) return true;
  // happy-eyeballs connects report an AggregateError of the attempts
  if (Array.isArray(e.errors) && e.errors.length > 0) return e.errors.every(isUnavailable);
  return false;
}

/** A driver error as the store's contract has it: StoreUnavailableError when unreachable, else itself. */
export function classify(err: unknown): unknown {
  if (err instanceof StoreUnavailableError || !isUnavailable(err)) return err;
  return new StoreUnavailableError(err as Error);
}

/**
 * Makes the pool's promise-returning `query` and `connect` throw StoreUnavailableError for an
 * unreachable database (the store uses only those forms).
 */
export function guardPool(pool: pg.Pool): pg.Pool {
  const query = pool.query.bind(pool) as (...a: unknown[]) => Promise<unknown>;
  const connect = pool.connect.bind(pool) as (cb?: unknown) => Promise<pg.PoolClient> | undefined;
  (pool as { query: unknown }).query = async (...args: unknown[]) => {
    try {
      return await query(...args);
    } catch (err) {
      throw classify(err);
    }
  };
  // pg-pool's own query() calls connect(callback): that form passes through untouched
  (pool as { connect: unknown }).connect = (cb?: unknown) => {
    if (typeof cb === 'function') return connect(cb);
    return connect()!.catch((err: unknown) => {
      throw classify(err);
    });
  };
  // A client losing its server connection must not crash the process: the pool drops an idle one
  // (its 'error' event), and a checked-out one (a transaction in store.ts) has no listener of the
  // pool's, so every client gets one of its own. The error also reaches the query in flight.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * A view of a checked-out client whose statements may run up to PG_INIT_TIMEOUT_MS (schema
 * creation, migrations); the caller also runs `SET LOCAL statement_timeout = 0` in its transaction.
 */
export function unbounded(client: pg.PoolClient): pg.PoolClient {
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver);
      return (text: string, values?: unknown[]) => target.query({ text, ...(values ? { values } : {}), query_timeout: PG_INIT_TIMEOUT_MS } as pg.QueryConfig);
    },
  });
}
