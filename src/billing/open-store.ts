/**
 * `--db URL` to a store:
 * - absent: SQLite file `./data/addrflow.sqlite` (relative to the working directory);
 * - `sqlite:PATH` (or `sqlite://PATH`, or `sqlite::memory:`): SQLite at PATH;
 * - `postgres://…` / `postgresql://…`: PostgreSQL; `?schema=NAME` puts the tables in that schema;
 *   `sslmode`, `sslrootcert`, `sslcert`, `sslkey` and `connect_timeout` as in libpq
 *   (postgres/connection.ts).
 * Env `ADDRFLOW_DB` is used when no URL is given.
 */
import { resolve } from 'node:path';
import { StartError } from '../contract/errors.ts';
import type { BillingStore } from './store.ts';
import type { ThreadWork } from './sqlite/thread-work.ts';

export const DEFAULT_SQLITE_PATH = 'data/addrflow.sqlite';

export function describeDb(url: string | undefined): string {
  const u = url ?? process.env.ADDRFLOW_DB;
  if (!u) return `sqlite:${DEFAULT_SQLITE_PATH}`;
  if (/^postgres(ql)?:/.test(u)) {
    // Never print a password.
    try {
      const p = new URL(u);
      p.password = p.password ? '***' : '';
      return p.toString();
    } catch {
      return 'postgres://(unparseable)';
    }
  }
  return u;
}

export interface OpenStoreOptions {
  /**
   * SQLite: the connection lives on a thread of its own (sqlite/thread-store.ts), so that the
   * caller's event loop never waits on SQLite (the HTTP server, the Kafka worker). PostgreSQL is
   * asynchronous anyway.
   */
  thread?: boolean;
  /** SQLite on a thread: what the thread runs before a charge commits (sqlite/thread-work.ts). Other stores run none. */
  work?: ThreadWork;
}

export async function openStore(url?: string, opts: OpenStoreOptions = {}): Promise<BillingStore> {
  const u = url ?? process.env.ADDRFLOW_DB;
  const sqlite = async (path: string): Promise<BillingStore> => {
    if (opts.thread) {
      const { SqliteThreadStore } = await import('./sqlite/thread-store.ts');
      return new SqliteThreadStore(path, opts.work ? { work: opts.work } : {});
    }
    const { SqliteStore } = await import('./sqlite/store.ts');
    return new SqliteStore(path);
  };
  if (!u) return sqlite(resolve(DEFAULT_SQLITE_PATH));
  if (/^postgres(ql)?:\/\//.test(u)) {
    const { PostgresStore } = await import('./postgres/store.ts');
    return new PostgresStore(u);
  }
  if (u.startsWith('sqlite:')) {
    let path = u.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    if (!path) throw new Error(`--db ${u}: no path after 'sqlite:'`);
    return sqlite(path === ':memory:' ? ':memory:' : resolve(path));
  }
  throw new StartError('STORE_CONFIG', `--db must be sqlite:PATH or postgres://…; got '${describeDb(u)}'`);
}
