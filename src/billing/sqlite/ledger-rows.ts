/**
 * Ledger rows into the SQLite store (inside the caller's transaction): the rows of a settle's
 * entries not written before — ids are idempotent, so a replayed record's row stays as it was and
 * is neither counted nor charged again.
 *
 * The common case takes one statement: entries that share everything but their id (one settle's,
 * as Billing makes them) and none of them there before. Their ids go in as one JSON array
 * (`json_each`): a Kafka slice's 2,000 rows cost about a quarter less of the store's thread than
 * 2,000 statement runs (docs/performance.md, issue 20). When the entries differ, or some id is
 * already there (a replay), that statement is rolled back to its savepoint and the rows go in one
 * by one, which says which of them are new.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { alikeButId, type LedgerEntry } from '../store.ts';

export interface LedgerRowsWritten {
  written: number;
  /** The ids of the rows written now, in entry order. */
  writtenIds: string[];
  /** Their credits. */
  total: number;
}

/** A ledger entry without its id: what the entries of one settle share. */
export type Shared = Omit<LedgerEntry, 'id'>;

/** The fields `entries` share, when they differ only in their ids (every settle's, as Billing makes them); else undefined. */
export function sharedFields(entries: readonly LedgerEntry[]): Shared | undefined {
  const f = entries[0];
  if (!f) return undefined;
  for (const e of entries) if (!alikeButId(e, f)) return undefined;
  return { account: f.account, function: f.function, credits: f.credits, requestid: f.requestid, time: f.time };
}

/** `statement(sql)`: the connection's prepared statement for `sql` (cached by the store). */
type Statements = (sql: string) => StatementSync;

export function insertLedgerRows(db: DatabaseSync, statement: Statements, accountId: string, entries: readonly LedgerEntry[], exported: 0 | 1): LedgerRowsWritten {
  return insertAllNew(db, statement, accountId, entries, exported) ?? insertOneByOne(statement, accountId, entries, exported);
}

function insertOneByOne(statement: Statements, accountId: string, entries: readonly LedgerEntry[], exported: 0 | 1): LedgerRowsWritten {
  const ins = statement(`INSERT INTO ledger (id, account_id, function, credits, request_id, created_at, exported)
                         VALUES (?, ?, ?, ?, ?, ?, ${exported}) ON CONFLICT(id) DO NOTHING`);
  let written = 0;
  let total = 0;
  const writtenIds: string[] = [];
  for (const e of entries) {
    if (Number(ins.run(e.id, accountId, e.function, e.credits, e.requestid, e.time).changes) !== 1) continue;
    written++;
    writtenIds.push(e.id);
    total += e.credits;
  }
  return { written, writtenIds, total };
}

/** All of `entries` in one statement, or undefined with nothing written (they differ beyond their ids, or some row is there). */
function insertAllNew(db: DatabaseSync, statement: Statements, accountId: string, entries: readonly LedgerEntry[], exported: 0 | 1): LedgerRowsWritten | undefined {
  const f = entries.length < 2 ? undefined : sharedFields(entries);
  if (!f) return undefined;
  const ids = entries.map((e) => e.id);
  db.exec('SAVEPOINT ledger_rows');
  const r = statement(`INSERT INTO ledger (id, account_id, function, credits, request_id, created_at, exported)
                       SELECT value, ?, ?, ?, ?, ?, ${exported} FROM json_each(?) WHERE true ON CONFLICT(id) DO NOTHING`)
    .run(accountId, f.function, f.credits, f.requestid, f.time, JSON.stringify(ids));
  if (Number(r.changes) !== ids.length) {
    db.exec('ROLLBACK TO ledger_rows; RELEASE ledger_rows');
    return undefined;
  }
  db.exec('RELEASE ledger_rows');
  return { written: ids.length, writtenIds: ids, total: ids.length * f.credits };
}
