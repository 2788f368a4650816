import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/billing/sqlite/store.ts';
import { SqliteThreadStore } from '../../src/billing/sqlite/thread-store.ts';
import { Billing } from '../../src/billing/billing.ts';
import { storeContract } from './store-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-sqlite-'));
const file = join(dir, 'billing.sqlite');
const threadDir = mkdtempSync(join(tmpdir(), 'addrflow-sqlite-thread-'));
const threadFile = join(threadDir, 'billing.sqlite');

describe('billing store contract: SQLite', () => {
  storeContract({
    open: async () => new SqliteStore(file),
    openSecond: async () => new SqliteStore(file),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  });
});

// the server's store: the same file, its connection on a thread of its own; the second
// connection is a direct one (another process, e.g. the CLI)
describe('billing store contract: SQLite on its own thread', () => {
  storeContract({
    open: async () => new SqliteThreadStore(threadFile),
    openSecond: async () => new SqliteStore(threadFile),
    cleanup: async () => rmSync(threadDir, { recursive: true, force: true }),
  });
});

describe('SQLite store file', () => {
  it('uses WAL and never holds a secret in clear text', async () => {
    const d = mkdtempSync(join(tmpdir(), 'addrflow-sqlite-'));
    const f = join(d, 'b.sqlite');
    const b = await Billing.fromStore(new SqliteStore(f));
    const c = await b.createAccount({ credits: 1 });
    await b.close();
    const bytes = Buffer.concat([readFileSync(f), ...['-wal'].map((s) => { try { return readFileSync(f + s); } catch { return Buffer.alloc(0); } })]);
    expect(bytes.includes(Buffer.from(c.license))).toBe(false);
    expect(bytes.includes(Buffer.from(c.guid))).toBe(false);
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(f);
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    db.close();
    rmSync(d, { recursive: true, force: true });
  });
});
