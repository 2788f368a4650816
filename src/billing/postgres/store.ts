/**
 * The shared billing store: PostgreSQL through `pg`. Several server instances (and the CLI) use
 * one database and therefore one balance per account.
 *
 * - reserve is ONE statement: a conditional `UPDATE … WHERE credits - reserved >= amount
 *   RETURNING` feeding the reservation `INSERT` (a data-modifying CTE). Row locking makes
 *   concurrent reservations on one account queue up, and each sees the previous one's result.
 * - settle is ONE statement too: the reservation row is deleted (`RETURNING amount`, which also
 *   serialises a concurrent settle of the same reservation), ledger rows are inserted with
 *   `ON CONFLICT (id) DO NOTHING RETURNING credits`, and the account row is debited by exactly the
 *   credits of the rows inserted.
 *
 * The URL may carry `?schema=NAME` (not a libpq parameter): tables then live in that schema, which
 * is created if missing. Tests use one fresh schema per run. TLS (`sslmode`, `sslrootcert`, …) and
 * timeouts: connection.ts. Every method throws StoreUnavailableError (503) when the database
 * cannot be reached, within the connection/statement timeout.
 */
import pg from 'pg';
import type { Op } from '../../contract/params.ts';
import { generatePepper } from '../secrets.ts';
import { mirrorScopes, outsideMirrored } from '../ledger-id.ts';
import { MIGRATE_TO_2, SCHEMA_SQL } from './schema.ts';
import { BATCH_FUNCTION_SQL, batchArgument, batchFunction, batchResults } from './batch-function.ts';
import { classify, guardPool, isUnavailable, pgConnection, unbounded } from './connection.ts';
import {
  SCHEMA_VERSION, UNLIMITED, type AccountRef, type IdempotencyClaim, type IdempotentAnswer, type AccountRow, type BillingStore, type LedgerEntry,
  type MoneyStep, type MoneyStepResult, type ReservationRow, type SettleOptions, type SettleResult,
} from '../store.ts';

interface AccountPgRow {
  id: string; license_hash: string; guid_hash: string; credits: string; reserved: string;
  agreements: string; disabled: boolean; created_at: Date;
}
interface LedgerPgRow {
  id: string; account_id: string; function: string; credits: string; request_id: string; created_at: Date;
}

function toAccount(r: AccountPgRow): AccountRow {
  return {
    id: r.id, licenseHash: r.license_hash, guidHash: r.guid_hash, credits: Number(r.credits),
    reserved: Number(r.reserved), agreements: r.agreements ? (r.agreements.split(',') as Op[]) : [],
    disabled: r.disabled, createdAt: r.created_at.toISOString(),
  };
}
function toLedger(r: LedgerPgRow): LedgerEntry {
  return {
    id: r.id, account: r.account_id, function: r.function as Op, credits: Number(r.credits),
    requestid: r.request_id, time: r.created_at.toISOString(),
  };
}

export interface PostgresStoreOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /** Bound on opening a connection and on one statement, ms (default PG_TIMEOUT_MS = 5000). */
  timeoutMs?: number;
}

export class PostgresStore implements BillingStore {
  readonly kind = 'postgres' as const;
  readonly schema: string | undefined;
  private readonly pool: pg.Pool;

  constructor(url: string, opts: PostgresStoreOptions = {}) {
    // timeouts, TLS (sslmode) and ?schema= are read in connection.ts; the pool's errors for an
    // unreachable database become StoreUnavailableError (503)
    const conn = pgConnection(url, opts);
    this.schema = conn.schema;
    this.pool = guardPool(new pg.Pool(conn.config));
  }

  /** One transaction on one client; `unbounded`: no statement timeout (schema creation, migrations). */
  private async tx<T>(fn: (c: pg.PoolClient) => Promise<T>, opts: { unbounded?: boolean } = {}): Promise<T> {
    const c = await this.pool.connect();
    let failed: unknown;
    try {
      await c.query('BEGIN');
      if (opts.unbounded) await c.query('SET LOCAL statement_timeout = 0');
      const r = await fn(opts.unbounded ? unbounded(c) : c);
      await c.query('COMMIT');
      return r;
    } catch (err) {
      // A connection that is gone or hangs is destroyed below (the server rolls back on its own);
      // a ROLLBACK on it would wait for the query timeout a second time.
      if (!(err instanceof Error && isUnavailable(err))) await c.query('ROLLBACK').catch(() => {});
      failed = err;
      throw classify(err);
    } finally {
      c.release(failed instanceof Error && isUnavailable(failed) ? failed : undefined);
    }
  }

  async init(): Promise<string> {
    return this.tx(async (c) => {
      // Serialise schema creation between instances starting together.
      await c.query(`SELECT pg_advisory_xact_lock(7428117)`);
      if (this.schema) await c.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      await c.query(SCHEMA_SQL);
      await c.query(BATCH_FUNCTION_SQL);
      const v = await c.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'schema_version'`);
      const version = v.rows[0] ? Number(v.rows[0].value) : 1;
      if (version > SCHEMA_VERSION) throw new Error(`billing store has schema version ${version}; this addrflow knows ${SCHEMA_VERSION}`);
      if (version < 2) await c.query(MIGRATE_TO_2);
      await c.query(`CREATE INDEX IF NOT EXISTS reservations_expiry ON reservations(expires_at)`);
      await c.query(`INSERT INTO meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [String(SCHEMA_VERSION)]);
      await c.query(`INSERT INTO meta (key, value) VALUES ('pepper', $1), ('maintenance', '0') ON CONFLICT (key) DO NOTHING`, [generatePepper()]);
      const r = await c.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'pepper'`);
      return r.rows[0]!.value;
    }, { unbounded: true });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Drops the schema given in the URL (tests). */
  async dropSchema(): Promise<void> {
    if (this.schema) await this.pool.query(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`);
  }

  async createAccount(row: AccountRow): Promise<void> {
    await this.pool.query(
      `INSERT INTO accounts (id, license_hash, guid_hash, credits, reserved, agreements, disabled, created_at)
       VALUES ($1, $2, $3, $4, 0, $5, $6, $7)`,
      [row.id, row.licenseHash, row.guidHash, row.credits, row.agreements.join(','), row.disabled, row.createdAt],
    );
  }

  async findAccount(ref: AccountRef): Promise<AccountRow | undefined> {
    const [col, val] = 'id' in ref ? ['id', ref.id] : 'guidHash' in ref ? ['guid_hash', ref.guidHash] : ['license_hash', ref.licenseHash];
    const r = await this.pool.query<AccountPgRow>(`SELECT * FROM accounts WHERE ${col} = $1`, [val]);
    return r.rows[0] ? toAccount(r.rows[0]) : undefined;
  }

  private async one(sql: string, params: unknown[]): Promise<AccountRow | undefined> {
    const r = await this.pool.query<AccountPgRow>(sql, params);
    return r.rows[0] ? toAccount(r.rows[0]) : undefined;
  }

  async topup(accountId: string, credits: number): Promise<AccountRow | undefined> {
    if (credits === UNLIMITED) return this.one(`UPDATE accounts SET credits = -1 WHERE id = $1 RETURNING *`, [accountId]);
    await this.pool.query(`UPDATE accounts SET credits = credits + $2 WHERE id = $1 AND credits <> -1`, [accountId, credits]);
    return this.findAccount({ id: accountId });
  }

  async setAgreements(accountId: string, agreements: Op[]): Promise<AccountRow | undefined> {
    return this.one(`UPDATE accounts SET agreements = $2 WHERE id = $1 RETURNING *`, [accountId, agreements.join(',')]);
  }

  async setDisabled(accountId: string, disabled: boolean): Promise<AccountRow | undefined> {
    return this.one(`UPDATE accounts SET disabled = $2 WHERE id = $1 RETURNING *`, [accountId, disabled]);
  }

  async reserve(res: ReservationRow): Promise<boolean> {
    return (await this.batch([{ kind: 'reserve', reservation: res }]))[0] as boolean;
  }

  async settle(reservationId: string, accountId: string, entries: LedgerEntry[], opts: SettleOptions = {}): Promise<SettleResult> {
    return (await this.batch([{ kind: 'settle', reservationId, accountId, entries, opts }]))[0] as SettleResult;
  }

  async release(reservationId: string): Promise<void> {
    await this.batch([{ kind: 'release', reservationId }]);
  }

  /**
   * The money steps in order, in ONE statement — one transaction, one round trip — calling
   * `addrflow_money_batch`, or `addrflow_money_charges` for a batch of charges (batch-function.ts
   * holds their SQL; a step alone is a batch of one).
   */
  async batch(steps: readonly MoneyStep[]): Promise<MoneyStepResult[]> {
    const r = await this.pool.query<{ out: Parameters<typeof batchResults>[1] }>(`SELECT ${batchFunction(steps)}($1::jsonb) AS out`, [batchArgument(steps)]);
    return batchResults(steps, r.rows[0]!.out);
  }

  async renew(reservationIds: readonly string[], expiresAt: string): Promise<number> {
    if (reservationIds.length === 0) return 0;
    const r = await this.pool.query(
      `UPDATE reservations SET expires_at = greatest(expires_at, $2::timestamptz) WHERE id = ANY($1::text[])`,
      [reservationIds, expiresAt]);
    return r.rowCount ?? 0;
  }

  async releaseExpired(now: string): Promise<number> {
    return this.tx(async (c) => {
      const gone = await c.query<{ account_id: string; amount: string }>(
        `DELETE FROM reservations WHERE expires_at < $1 RETURNING account_id, amount`, [now]);
      for (const r of gone.rows) {
        await c.query(`UPDATE accounts SET reserved = reserved - $2 WHERE id = $1`, [r.account_id, r.amount]);
      }
      return gone.rowCount ?? 0;
    });
  }

  async ledger(accountId: string, limit = 1000): Promise<LedgerEntry[]> {
    const r = await this.pool.query<LedgerPgRow>(
      `SELECT * FROM ledger WHERE account_id = $1 ORDER BY created_at, id LIMIT $2`, [accountId, limit]);
    return r.rows.map(toLedger);
  }

  async ledgerCount(accountId: string): Promise<number> {
    const r = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ledger WHERE account_id = $1`, [accountId]);
    return Number(r.rows[0]!.n);
  }

  async ledgerEntry(accountId: string, id: string): Promise<LedgerEntry | undefined> {
    const r = await this.pool.query<LedgerPgRow>(`SELECT * FROM ledger WHERE id = $1 AND account_id = $2`, [id, accountId]);
    return r.rows[0] ? toLedger(r.rows[0]) : undefined;
  }

  async unexported(accountId: string, ids: readonly string[]): Promise<LedgerEntry[]> {
    if (ids.length === 0) return [];
    const r = await this.pool.query<LedgerPgRow>(
      `SELECT * FROM ledger WHERE id = ANY($1::text[]) AND account_id = $2 AND NOT exported`, [ids, accountId]);
    const rows = r.rows.map(toLedger);
    if (rows.length === 0) return rows;
    const g = await this.pool.query<{ scope: string; from_pos: string; to_pos: string }>(
      `SELECT scope, from_pos, to_pos FROM ledger_mirrored WHERE account_id = $1 AND scope = ANY($2::text[])`,
      [accountId, mirrorScopes(rows.map((e) => e.id), accountId)]);
    return outsideMirrored(rows, accountId, g.rows.map((x) => ({ scope: x.scope, from: BigInt(x.from_pos), to: BigInt(x.to_pos) })));
  }

  async markMirrored(accountId: string, scope: string, from: bigint, to: bigint): Promise<void> {
    if (to <= from) return;
    // continue the range that ends where this one starts (a partition's committed offsets), else a new one
    await this.pool.query(`
      WITH grown AS (
        UPDATE ledger_mirrored SET to_pos = $4 WHERE account_id = $1 AND scope = $2 AND from_pos <= $3 AND to_pos >= $3 AND to_pos < $4 RETURNING 1)
      INSERT INTO ledger_mirrored (account_id, scope, from_pos, to_pos)
      SELECT $1::text, $2::text, $3::bigint, $4::bigint
      WHERE NOT EXISTS (SELECT 1 FROM grown)
        AND NOT EXISTS (SELECT 1 FROM ledger_mirrored WHERE account_id = $1 AND scope = $2 AND from_pos <= $3 AND to_pos >= $4)
      ON CONFLICT (account_id, scope, from_pos) DO UPDATE SET to_pos = GREATEST(ledger_mirrored.to_pos, EXCLUDED.to_pos)`,
    [accountId, scope, from.toString(), to.toString()]);
  }

  async ledgerIdsPresent(accountId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const r = await this.pool.query<{ id: string }>(
      `SELECT id FROM ledger WHERE id = ANY($1::text[]) AND account_id = $2`, [ids, accountId]);
    return new Set(r.rows.map((x) => x.id));
  }

  async claimIdempotencyKey(accountId: string, key: string, fingerprint: string, now: string, staleBefore: string, expiredBefore: string): Promise<IdempotencyClaim> {
    // One statement: insert, or take over a pending key of a dead server or an expired key; the
    // row lock makes two concurrent claims of one key queue, and only one of them wins.
    const r = await this.pool.query<{ claimed: boolean }>(
      `INSERT INTO idempotency_keys AS k (account_id, key, fingerprint, state, created_at)
       VALUES ($1, $2, $3, 'pending', $4)
       ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'pending',
         status = NULL, content_type = NULL, body = NULL, created_at = excluded.created_at
       WHERE k.created_at < $6 OR (k.state = 'pending' AND k.created_at < $5)
       RETURNING true AS claimed`,
      [accountId, key, fingerprint, now, staleBefore, expiredBefore]);
    if (r.rowCount === 1) return { state: 'claimed' };
    const cur = await this.pool.query<{ fingerprint: string; state: string; status: number; content_type: string; body: string }>(
      `SELECT fingerprint, state, status, content_type, body FROM idempotency_keys WHERE account_id = $1 AND key = $2`, [accountId, key]);
    const row = cur.rows[0];
    if (!row) return this.claimIdempotencyKey(accountId, key, fingerprint, now, staleBefore, expiredBefore); // abandoned meanwhile
    if (row.state === 'pending') return { state: 'pending', fingerprint: row.fingerprint };
    return { state: 'done', fingerprint: row.fingerprint, answer: { status: Number(row.status), contentType: row.content_type, body: row.body } };
  }

  async completeIdempotencyKey(accountId: string, key: string, answer: IdempotentAnswer, _now: string): Promise<void> {
    await this.pool.query(
      `UPDATE idempotency_keys SET state = 'done', status = $3, content_type = $4, body = $5 WHERE account_id = $1 AND key = $2`,
      [accountId, key, answer.status, answer.contentType, answer.body]);
  }

  async abandonIdempotencyKey(accountId: string, key: string): Promise<void> {
    await this.pool.query(`DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND state = 'pending'`, [accountId, key]);
  }

  async sweepIdempotencyKeys(before: string): Promise<number> {
    const r = await this.pool.query(`DELETE FROM idempotency_keys WHERE created_at < $1`, [before]);
    return r.rowCount ?? 0;
  }

  async getMaintenance(): Promise<boolean> {
    const r = await this.pool.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'maintenance'`);
    return r.rows[0]?.value === '1';
  }

  async setMaintenance(on: boolean): Promise<void> {
    await this.pool.query(
      `INSERT INTO meta (key, value) VALUES ('maintenance', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [on ? '1' : '0']);
  }
}
