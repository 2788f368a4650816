/**
 * Ledger rows into the SQLite store (src/billing/sqlite/ledger-rows.ts): a settle's rows in one
 * statement when they are all new, row by row when some are there already (a replay) or the
 * entries differ — the same rows and the same answer either way.
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { beforeEach, describe, expect, it } from 'vitest';
import { insertLedgerRows } from '../../src/billing/sqlite/ledger-rows.ts';
import { SCHEMA } from '../../src/billing/sqlite/schema.ts';
import type { LedgerEntry } from '../../src/billing/store.ts';

const entry = (i: number, over: Partial<LedgerEntry> = {}): LedgerEntry => ({
  id: `acc/lines/kafka:t:g/0/${i}`, account: 'acc', function: 'lines', credits: 1, requestid: 'r1', time: '2026-11-26T21:00:00.000Z', ...over,
});

describe('ledger rows into the SQLite store', () => {
  let db: DatabaseSync;
  let statements: number;
  const statement = (sql: string): StatementSync => (statements++, db.prepare(sql));
  const insert = (entries: LedgerEntry[], exported: 0 | 1 = 0) => {
    db.exec('BEGIN');
    try {
      return insertLedgerRows(db, statement, 'acc', entries, exported);
    } finally {
      db.exec('COMMIT');
    }
  };
  const rows = () => db.prepare('SELECT id, function, credits, request_id, created_at, exported FROM ledger ORDER BY rowid').all();

  beforeEach(() => {
    db = new DatabaseSync(':memory:');
    db.exec(SCHEMA);
    db.prepare(`INSERT INTO accounts (id, license_hash, guid_hash, credits, created_at) VALUES ('acc', 'l', 'g', 100, 't')`).run();
    statements = 0;
  });

  it('all new and alike: one statement writes every row, in entry order, as given', () => {
    const entries = Array.from({ length: 2000 }, (_, i) => entry(i));
    expect(insert(entries)).toEqual({ written: 2000, writtenIds: entries.map((e) => e.id), total: 2000 });
    expect(statements).toBe(1);
    const stored = rows() as Array<Record<string, unknown>>;
    expect(stored.map((r) => r.id)).toEqual(entries.map((e) => e.id));
    expect(stored[7]).toEqual({ id: entries[7]!.id, function: 'lines', credits: 1, request_id: 'r1', created_at: '2026-11-26T21:00:00.000Z', exported: 0 });
  });

  it('a replay: the rows already there stay as they were; only the new ones are written, counted and charged', () => {
    insert([entry(1, { time: 'earlier', requestid: 'r0' }), entry(3, { time: 'earlier', requestid: 'r0' })], 1);
    const again = [entry(0), entry(1), entry(2), entry(3), entry(4)];
    expect(insert(again)).toEqual({ written: 3, writtenIds: [entry(0).id, entry(2).id, entry(4).id], total: 3 });
    const stored = rows() as Array<Record<string, unknown>>;
    expect(stored).toHaveLength(5);
    expect(stored.find((r) => r.id === entry(1).id)).toMatchObject({ request_id: 'r0', created_at: 'earlier', exported: 1 });
    expect(insert(again)).toEqual({ written: 0, writtenIds: [], total: 0 }); // all there: nothing
    expect(rows()).toHaveLength(5);
  });

  it('entries that differ beyond their id, and a single entry, go row by row with the same answer', () => {
    const mixed = [entry(0), entry(1, { credits: 2 }), entry(2, { time: 'later' })];
    expect(insert(mixed)).toEqual({ written: 3, writtenIds: mixed.map((e) => e.id), total: 4 });
    expect(insert([entry(9)])).toEqual({ written: 1, writtenIds: [entry(9).id], total: 1 });
    expect((rows() as Array<Record<string, unknown>>).map((r) => [r.credits, r.created_at])).toEqual([
      [1, '2026-11-26T21:00:00.000Z'], [2, '2026-11-26T21:00:00.000Z'], [1, 'later'], [1, '2026-11-26T21:00:00.000Z'],
    ]);
  });

  it('the same id twice in one settle is written once', () => {
    expect(insert([entry(5), entry(5), entry(6)])).toEqual({ written: 2, writtenIds: [entry(5).id, entry(6).id], total: 2 });
  });
});
