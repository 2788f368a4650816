/**
 * The embedded billing store: node:sqlite (synchronous, in-process), WAL journal, and every
 * money-moving step in one `BEGIN IMMEDIATE` transaction, which takes the write lock at its
 * start, so that two processes sharing the file (a server and the CLI) serialise cleanly.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Op } from '../../contract/params.ts';
import { generatePepper } from '../secrets.ts';
import {
  UNLIMITED, type AccountRef, type AccountRow, type BillingStore, type LedgerEntry,
  type ReservationRow, type SettleResult,
} from '../store.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  license_hash TEXT NOT NULL UNIQUE,
  guid_hash TEXT NOT NULL UNIQUE,
  credits INTEGER NOT NULL CHECK (credits >= -1),
  reserved INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  agreements TEXT NOT NULL DEFAULT '',
  disabled INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reservations (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ledger (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  function TEXT NOT NULL,
  credits INTEGER NOT NULL,
  request_id TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ledger_account ON ledger(account_id, created_at);
`;

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

  constructor(path: string) {
    this.path = path;
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new DatabaseSync(path, { timeout: 10_000 });
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
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
      this.q(`INSERT INTO meta (key, value) VALUES ('pepper', ?) ON CONFLICT(key) DO NOTHING`).run(generatePepper());
      this.q(`INSERT INTO meta (key, value) VALUES ('maintenance', '0') ON CONFLICT(key) DO NOTHING`).run();
      return (this.q(`SELECT value FROM meta WHERE key = 'pepper'`).get() as { value: string }).value;
    });
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
    return this.tx(() => {
      const u = this.q(`UPDATE accounts SET reserved = reserved + ?
                        WHERE id = ? AND (credits = -1 OR credits - reserved >= ?)`)
        .run(res.amount, res.accountId, res.amount);
      if (Number(u.changes) !== 1) return false;
      this.q(`INSERT INTO reservations (id, account_id, amount, created_at) VALUES (?, ?, ?, ?)`)
        .run(res.id, res.accountId, res.amount, res.createdAt);
      return true;
    });
  }

  async settle(reservationId: string, accountId: string, entries: LedgerEntry[]): Promise<SettleResult> {
    return this.tx(() => {
      const res = this.q(`SELECT amount FROM reservations WHERE id = ? AND account_id = ?`)
        .get(reservationId, accountId) as { amount: number } | undefined;
      const ins = this.q(`INSERT INTO ledger (id, account_id, function, credits, request_id, created_at)
                          VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`);
      let written = 0;
      let total = 0;
      for (const e of entries) {
        const r = ins.run(e.id, accountId, e.function, e.credits, e.requestid, e.time);
        if (Number(r.changes) === 1) {
          written++;
          total += e.credits;
        }
      }
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
      const after = this.q(`SELECT credits FROM accounts WHERE id = ?`).get(accountId) as { credits: number };
      return { written, charged, credits: Number(after.credits) };
    });
  }

  async release(reservationId: string): Promise<void> {
    this.tx(() => {
      const res = this.q(`SELECT account_id, amount FROM reservations WHERE id = ?`).get(reservationId) as
        { account_id: string; amount: number } | undefined;
      if (!res) return;
      this.q(`UPDATE accounts SET reserved = reserved - ? WHERE id = ?`).run(res.amount, res.account_id);
      this.q(`DELETE FROM reservations WHERE id = ?`).run(reservationId);
    });
  }

  async releaseStale(before: string): Promise<number> {
    return this.tx(() => {
      const rows = this.q(`SELECT id, account_id, amount FROM reservations WHERE created_at < ?`).all(before) as
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

  async ledgerEntry(id: string): Promise<LedgerEntry | undefined> {
    const r = this.q(`SELECT * FROM ledger WHERE id = ?`).get(id) as LedgerSqlRow | undefined;
    return r ? toLedger(r) : undefined;
  }

  async getMaintenance(): Promise<boolean> {
    const r = this.q(`SELECT value FROM meta WHERE key = 'maintenance'`).get() as { value: string } | undefined;
    return r?.value === '1';
  }

  async setMaintenance(on: boolean): Promise<void> {
    this.q(`INSERT INTO meta (key, value) VALUES ('maintenance', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(on ? '1' : '0');
  }
}
