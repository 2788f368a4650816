/**
 * The embedded billing store: node:sqlite (synchronous, in-process), WAL journal, and every
 * money-moving step in one `BEGIN IMMEDIATE` transaction, which takes the write lock at its
 * start, so that two processes sharing the file (a server and the CLI) serialise cleanly.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { SAFETY_NET_PAGES } from './checkpointer-thread.ts';
import { MIGRATE_TO_2, SCHEMA } from './schema.ts';
import { insertLedgerRows, type LedgerRowsWritten } from './ledger-rows.ts';
import type { Op } from '../../contract/params.ts';
import { generatePepper } from '../secrets.ts';
import { mirrorScopes, outsideMirrored } from '../ledger-id.ts';
import {
  SCHEMA_VERSION, UNLIMITED, fillAnswer, type AccountRef, type IdempotencyClaim, type IdempotentAnswer, type AccountRow, type BillingStore, type LedgerEntry,
  type MoneyStep, type MoneyStepResult, type ReservationRow, type SettleOptions, type SettleResult,
} from '../store.ts';

interface AccountSqlRow {
  id: string; license_hash: string; guid_hash: string; credits: number; reserved: number;
  agreements: string; disabled: number; created_at: string;
}
interface LedgerSqlRow {
  id: string; account_id: string; function: string; credits: number; request_id: string; created_at: string;
}

function toAccount(r: AccountSqlRow): AccountRow {
  return {
    id: r.id, licenseHash: r.license_hash, guidHash: r.guid_hash, credits: Number(r.credits),
    reserved: Number(r.reserved), agreements: r.agreements ? (r.agreements.split(',') as Op[]) : [],
    disabled: Number(r.disabled) !== 0, createdAt: r.created_at,
  };
}
function toLedger(r: LedgerSqlRow): LedgerEntry {
  return {
    id: r.id, account: r.account_id, function: r.function as Op, credits: Number(r.credits),
    requestid: r.request_id, time: r.created_at,
  };
}

export class SqliteStore implements BillingStore {
  readonly kind = 'sqlite' as const;
  readonly path: string;
  private readonly db: DatabaseSync;
  private readonly stmts = new Map<string, StatementSync>();

  /**
   * `checkpoints: 'thread'`: another thread checkpoints the log (checkpointer-thread.ts); this
   * connection checkpoints only past its safety net. Default: SQLite's automatic checkpoint.
   */
  constructor(path: string, opts: { checkpoints?: 'auto' | 'thread' } = {}) {
    this.path = path;
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new DatabaseSync(path, { timeout: 10_000 });
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
    if (opts.checkpoints === 'thread') this.db.exec(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  }

  private q(sql: string): StatementSync {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  private tx<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const r = fn();
      this.db.exec('COMMIT');
      return r;
    } catch (err) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw err;
    }
  }

  async init(): Promise<string> {
    return this.tx(() => {
      this.db.exec(SCHEMA);
      this.migrate();
      this.q(`INSERT INTO meta (key, value) VALUES ('pepper', ?) ON CONFLICT(key) DO NOTHING`).run(generatePepper());
      this.q(`INSERT INTO meta (key, value) VALUES ('maintenance', '0') ON CONFLICT(key) DO NOTHING`).run();
      return (this.q(`SELECT value FROM meta WHERE key = 'pepper'`).get() as { value: string }).value;
    });
  }

  /** Brings a store written by an older addrflow to SCHEMA_VERSION (inside init's transaction). */
  private migrate(): void {
    const row = this.q(`SELECT value FROM meta WHERE key = 'schema_version'`).get() as { value: string } | undefined;
    const version = row ? Number(row.value) : 1;
    if (version > SCHEMA_VERSION) throw new Error(`billing store ${this.path} has schema version ${version}; this addrflow knows ${SCHEMA_VERSION}`);
    if (version < 2) {
      const cols = (this.db.prepare(`PRAGMA table_info(reservations)`).all() as Array<{ name: string }>).map((c) => c.name);
      // a version-1 reservation had no lease: it expires at once (stop every process before upgrading)
      if (!cols.includes('expires_at')) this.db.exec(`ALTER TABLE reservations ADD COLUMN expires_at TEXT NOT NULL DEFAULT ''; UPDATE reservations SET expires_at = created_at;`);
      const lcols = (this.db.prepare(`PRAGMA table_info(ledger)`).all() as Array<{ name: string }>).map((c) => c.name);
      if (!lcols.includes('exported')) this.db.exec(`ALTER TABLE ledger ADD COLUMN exported INTEGER NOT NULL DEFAULT 1`);
      this.db.exec(MIGRATE_TO_2);
    }
    this.db.exec(`CREATE INDEX IF NOT EXISTS reservations_expiry ON reservations(expires_at)`);
    this.q(`INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(String(SCHEMA_VERSION));
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }

  async createAccount(row: AccountRow): Promise<void> {
    this.q(`INSERT INTO accounts (id, license_hash, guid_hash, credits, reserved, agreements, disabled, created_at)
            VALUES (?, ?, ?, ?, 0, ?, ?, ?)`)
      .run(row.id, row.licenseHash, row.guidHash, row.credits, row.agreements.join(','), row.disabled ? 1 : 0, row.createdAt);
  }

  async findAccount(ref: AccountRef): Promise<AccountRow | undefined> {
    const [col, val] = 'id' in ref ? ['id', ref.id] : 'guidHash' in ref ? ['guid_hash', ref.guidHash] : ['license_hash', ref.licenseHash];
    const r = this.q(`SELECT * FROM accounts WHERE ${col} = ?`).get(val) as AccountSqlRow | undefined;
    return r ? toAccount(r) : undefined;
  }

  private byId(id: string): AccountRow | undefined {
    const r = this.q(`SELECT * FROM accounts WHERE id = ?`).get(id) as AccountSqlRow | undefined;
    return r ? toAccount(r) : undefined;
  }

  async topup(accountId: string, credits: number): Promise<AccountRow | undefined> {
    return this.tx(() => {
      if (credits === UNLIMITED) this.q(`UPDATE accounts SET credits = -1 WHERE id = ?`).run(accountId);
      else this.q(`UPDATE accounts SET credits = credits + ? WHERE id = ? AND credits <> -1`).run(credits, accountId);
      return this.byId(accountId);
    });
  }

  async setAgreements(accountId: string, agreements: Op[]): Promise<AccountRow | undefined> {
    this.q(`UPDATE accounts SET agreements = ? WHERE id = ?`).run(agreements.join(','), accountId);
    return this.byId(accountId);
  }

  async setDisabled(accountId: string, disabled: boolean): Promise<AccountRow | undefined> {
    this.q(`UPDATE accounts SET disabled = ? WHERE id = ?`).run(disabled ? 1 : 0, accountId);
    return this.byId(accountId);
  }

  async reserve(res: ReservationRow): Promise<boolean> {
    return this.tx(() => this.reserveStep(res));
  }

  async settle(reservationId: string, accountId: string, entries: LedgerEntry[], opts: SettleOptions = {}): Promise<SettleResult> {
    return this.tx(() => this.settleStep(reservationId, accountId, entries, opts));
  }

  async release(reservationId: string): Promise<void> {
    this.tx(() => this.releaseStep(reservationId));
  }

  async batch(steps: readonly MoneyStep[]): Promise<MoneyStepResult[]> {
    return this.tx(() => steps.map((s) => this.step(s)));
  }

  // the money steps, each inside a transaction of the caller
  private step(s: MoneyStep): MoneyStepResult {
    switch (s.kind) {
      case 'reserve':
        return this.reserveStep(s.reservation);
      case 'settle':
        return this.settleStep(s.reservationId, s.accountId, s.entries, s.opts ?? {});
      case 'release':
        return this.releaseStep(s.reservationId);
      case 'charge':
        return this.chargeStep(s.reservation, s.entries, s.opts ?? {});
    }
  }

  /**
   * A reserve and its settle in one step, without the reservation row that only lives between
   * them: the same 402 decision as reserveStep (the balance net of every pending reservation),
   * then the ledger rows and the debit as settleStep writes them. It writes the account's row and
   * the ledger, not the reservations table and its index (3 fewer pages per commit).
   */
  private chargeStep(res: ReservationRow, entries: LedgerEntry[], opts: SettleOptions): false | SettleResult {
    const acc = this.q(`SELECT credits, reserved FROM accounts WHERE id = ?`).get(res.accountId) as { credits: number; reserved: number } | undefined;
    if (!acc) return false;
    const credits = Number(acc.credits);
    if (credits !== UNLIMITED && credits - Number(acc.reserved) < res.amount) return false;
    const { written, writtenIds, total } = this.insertLedger(res.accountId, entries, opts);
    const charged = credits === UNLIMITED ? 0 : total;
    if (charged > res.amount) throw new Error(`settle: ${charged} credits exceed the reservation of ${res.amount}`);
    if (charged > 0) this.q(`UPDATE accounts SET credits = credits - ? WHERE id = ?`).run(charged, res.accountId);
    const after = credits === UNLIMITED ? UNLIMITED : credits - charged;
    this.storeAnswer(res.accountId, after, opts);
    return { written, writtenIds, charged, credits: after };
  }

  /** The ledger rows of `entries` not written before (ids are idempotent), and their credits. */
  private insertLedger(accountId: string, entries: LedgerEntry[], opts: SettleOptions): LedgerRowsWritten {
    return insertLedgerRows(this.db, (sql) => this.q(sql), accountId, entries, opts.exportLater ? 0 : 1);
  }

  /** The request's `Idempotency-Key` answer, with the balance after its charge. */
  private storeAnswer(accountId: string, credits: number, opts: SettleOptions): void {
    if (!opts.answer) return;
    const a = fillAnswer(opts.answer.template, credits);
    this.q(`UPDATE idempotency_keys SET state = 'done', status = ?, content_type = ?, body = ? WHERE account_id = ? AND key = ?`)
      .run(a.status, a.contentType, a.body, accountId, opts.answer.key);
  }

  private reserveStep(res: ReservationRow): boolean {
    const u = this.q(`UPDATE accounts SET reserved = reserved + ?
                      WHERE id = ? AND (credits = -1 OR credits - reserved >= ?)`)
      .run(res.amount, res.accountId, res.amount);
    if (Number(u.changes) !== 1) return false;
    this.q(`INSERT INTO reservations (id, account_id, amount, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`)
      .run(res.id, res.accountId, res.amount, res.createdAt, res.expiresAt);
    return true;
  }

  private settleStep(reservationId: string, accountId: string, entries: LedgerEntry[], opts: SettleOptions): SettleResult {
    const res = this.q(`SELECT amount FROM reservations WHERE id = ? AND account_id = ?`)
      .get(reservationId, accountId) as { amount: number } | undefined;
    const { written, writtenIds, total } = this.insertLedger(accountId, entries, opts);
    if (!res && written > 0) {
      throw new Error(`settle: reservation ${reservationId} is unknown or already settled`);
    }
    const acc = this.byId(accountId);
    if (!acc) throw new Error(`settle: account ${accountId} does not exist`);
    const charged = acc.credits === UNLIMITED ? 0 : total;
    if (res && charged > res.amount) {
      throw new Error(`settle: ${charged} credits exceed the reservation of ${res.amount}`);
    }
    const release = res ? Number(res.amount) : 0;
    if (charged > 0 || release > 0) {
      this.q(`UPDATE accounts SET credits = CASE WHEN credits = -1 THEN -1 ELSE credits - ? END,
                                  reserved = reserved - ? WHERE id = ?`).run(charged, release, accountId);
    }
    if (res) this.q(`DELETE FROM reservations WHERE id = ?`).run(reservationId);
    const after = Number((this.q(`SELECT credits FROM accounts WHERE id = ?`).get(accountId) as { credits: number }).credits);
    this.storeAnswer(accountId, after, opts);
    return { written, writtenIds, charged, credits: after };
  }

  private releaseStep(reservationId: string): undefined {
    const res = this.q(`SELECT account_id, amount FROM reservations WHERE id = ?`).get(reservationId) as
      { account_id: string; amount: number } | undefined;
    if (!res) return;
    this.q(`UPDATE accounts SET reserved = reserved - ? WHERE id = ?`).run(res.amount, res.account_id);
    this.q(`DELETE FROM reservations WHERE id = ?`).run(reservationId);
    return undefined;
  }

  async renew(reservationIds: readonly string[], expiresAt: string): Promise<number> {
    if (reservationIds.length === 0) return 0;
    return this.tx(() => {
      let n = 0;
      const u = this.q(`UPDATE reservations SET expires_at = ? WHERE id = ? AND expires_at < ?`);
      const has = this.q(`SELECT 1 FROM reservations WHERE id = ?`);
      for (const id of reservationIds) {
        if (Number(u.run(expiresAt, id, expiresAt).changes) === 1 || has.get(id)) n++;
      }
      return n;
    });
  }

  async releaseExpired(now: string): Promise<number> {
    return this.tx(() => {
      const rows = this.q(`SELECT id, account_id, amount FROM reservations WHERE expires_at < ?`).all(now) as
        Array<{ id: string; account_id: string; amount: number }>;
      for (const r of rows) {
        this.q(`UPDATE accounts SET reserved = reserved - ? WHERE id = ?`).run(r.amount, r.account_id);
        this.q(`DELETE FROM reservations WHERE id = ?`).run(r.id);
      }
      return rows.length;
    });
  }

  async ledger(accountId: string, limit = 1000): Promise<LedgerEntry[]> {
    return (this.q(`SELECT * FROM ledger WHERE account_id = ? ORDER BY created_at, id LIMIT ?`).all(accountId, limit) as unknown as LedgerSqlRow[]).map(toLedger);
  }

  async ledgerCount(accountId: string): Promise<number> {
    return Number((this.q(`SELECT count(*) AS n FROM ledger WHERE account_id = ?`).get(accountId) as { n: number }).n);
  }

  async ledgerEntry(accountId: string, id: string): Promise<LedgerEntry | undefined> {
    const r = this.q(`SELECT * FROM ledger WHERE id = ? AND account_id = ?`).get(id, accountId) as LedgerSqlRow | undefined;
    return r ? toLedger(r) : undefined;
  }

  async unexported(accountId: string, ids: readonly string[]): Promise<LedgerEntry[]> {
    const s = this.q(`SELECT * FROM ledger WHERE id = ? AND account_id = ? AND exported = 0`);
    const rows: LedgerEntry[] = [];
    for (const id of ids) {
      const r = s.get(id, accountId) as LedgerSqlRow | undefined;
      if (r) rows.push(toLedger(r));
    }
    if (rows.length === 0) return rows;
    const ranges = this.q(`SELECT scope, from_pos, to_pos FROM ledger_mirrored WHERE account_id = ? AND scope = ?`);
    ranges.setReadBigInts(true); // offsets are 64-bit
    const held = mirrorScopes(rows.map((r) => r.id), accountId).flatMap((scope) =>
      (ranges.all(accountId, scope) as Array<{ scope: string; from_pos: bigint; to_pos: bigint }>).map((g) => ({ scope: g.scope, from: g.from_pos, to: g.to_pos })));
    return outsideMirrored(rows, accountId, held);
  }

  async markMirrored(accountId: string, scope: string, from: bigint, to: bigint): Promise<void> {
    if (to <= from) return;
    this.tx(() => {
      // continue the range that ends where this one starts (a partition's committed offsets)
      const grown = this.q(`UPDATE ledger_mirrored SET to_pos = ? WHERE account_id = ? AND scope = ? AND from_pos <= ? AND to_pos >= ? AND to_pos < ?`)
        .run(to, accountId, scope, from, from, to);
      if (Number(grown.changes) > 0) return;
      this.q(`INSERT INTO ledger_mirrored (account_id, scope, from_pos, to_pos) SELECT ?, ?, ?, ?
              WHERE NOT EXISTS (SELECT 1 FROM ledger_mirrored WHERE account_id = ? AND scope = ? AND from_pos <= ? AND to_pos >= ?)
              ON CONFLICT (account_id, scope, from_pos) DO UPDATE SET to_pos = max(to_pos, excluded.to_pos)`)
        .run(accountId, scope, from, to, accountId, scope, from, to);
    });
  }

  async ledgerIdsPresent(accountId: string, ids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    const s = this.q(`SELECT 1 FROM ledger WHERE id = ? AND account_id = ?`);
    for (const id of ids) if (s.get(id, accountId)) found.add(id);
    return found;
  }

  async claimIdempotencyKey(accountId: string, key: string, fingerprint: string, now: string, staleBefore: string, expiredBefore: string): Promise<IdempotencyClaim> {
    return this.tx(() => {
      const r = this.q(`SELECT fingerprint, state, status, content_type, body, created_at FROM idempotency_keys WHERE account_id = ? AND key = ?`)
        .get(accountId, key) as { fingerprint: string; state: string; status: number; content_type: string; body: string; created_at: string } | undefined;
      const takeable = !r || r.created_at < expiredBefore || (r.state === 'pending' && r.created_at < staleBefore);
      if (takeable) {
        this.q(`INSERT INTO idempotency_keys (account_id, key, fingerprint, state, created_at) VALUES (?, ?, ?, 'pending', ?)
                ON CONFLICT(account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'pending',
                  status = NULL, content_type = NULL, body = NULL, created_at = excluded.created_at`).run(accountId, key, fingerprint, now);
        return { state: 'claimed' };
      }
      if (r.state === 'pending') return { state: 'pending', fingerprint: r.fingerprint };
      return { state: 'done', fingerprint: r.fingerprint, answer: { status: Number(r.status), contentType: r.content_type, body: r.body } };
    });
  }

  async completeIdempotencyKey(accountId: string, key: string, answer: IdempotentAnswer, _now: string): Promise<void> {
    this.q(`UPDATE idempotency_keys SET state = 'done', status = ?, content_type = ?, body = ? WHERE account_id = ? AND key = ?`)
      .run(answer.status, answer.contentType, answer.body, accountId, key);
  }

  async abandonIdempotencyKey(accountId: string, key: string): Promise<void> {
    this.q(`DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND state = 'pending'`).run(accountId, key);
  }

  async sweepIdempotencyKeys(before: string): Promise<number> {
    return Number(this.q(`DELETE FROM idempotency_keys WHERE created_at < ?`).run(before).changes);
  }

  async getMaintenance(): Promise<boolean> {
    const r = this.q(`SELECT value FROM meta WHERE key = 'maintenance'`).get() as { value: string } | undefined;
    return r?.value === '1';
  }

  async setMaintenance(on: boolean): Promise<void> {
    this.q(`INSERT INTO meta (key, value) VALUES ('maintenance', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(on ? '1' : '0');
  }
}
