/**
 * PostgreSQL for tests: 127.0.0.1:5432, trust auth, database `test` (scripts/ensure-postgres.sh
 * starts it). Each test file gets its own fresh schema, dropped at the end.
 * Override the server with ADDRFLOW_TEST_PG. When the server is unreachable the suites skip with
 * the reason in their title, unless ADDRFLOW_REQUIRE_POSTGRES=1 (CI), where they fail instead.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_URL = process.env.ADDRFLOW_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function postgresReachable(): Promise<boolean> {
  if (process.env.ADDRFLOW_REQUIRE_POSTGRES === '1') return true;
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/** A new schema name, unique per call. */
export function uniqueSchema(prefix = 't'): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export function pgUrlWithSchema(schema: string): string {
  const u = new URL(PG_URL);
  u.searchParams.set('schema', schema);
  return u.toString();
}

export async function dropSchema(schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await c.end();
  }
}

export const PG_SKIP_REASON = `PostgreSQL unreachable at ${PG_URL} (run scripts/ensure-postgres.sh)`;
