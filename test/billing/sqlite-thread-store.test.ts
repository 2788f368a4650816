/**
 * The SQLite store on its own thread (src/billing/sqlite/thread-store.ts), beyond the store
 * contract (sqlite-store.test.ts runs it against this store too): a real worker thread and a real
 * SQLite file, read back through a direct connection.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Billing } from '../../src/billing/billing.ts';
import { ledgerId } from '../../src/billing/ledger-id.ts';
import { newRequestId } from '../../src/billing/request-id.ts';
import { SqliteStore } from '../../src/billing/sqlite/store.ts';
import { SqliteThreadStore } from '../../src/billing/sqlite/thread-store.ts';
import { ServiceError } from '../../src/contract/errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-thread-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One metered request: reserve then settle one `lines` record. */
async function request(b: Billing, account: string): Promise<number> {
  const r = await b.reserve(account, 'lines', 1);
  const rid = newRequestId();
  return (await b.settle(r, [{ id: ledgerId(account, 'lines', { kind: 'http', requestid: rid }, 0), requestid: rid }])).written;
}

describe('SQLite store on its own thread', () => {
  it('close() commits every step submitted before it (the SIGTERM drain), in few transactions', async () => {
    const file = join(dir, 'drain.sqlite');
    const b = await Billing.fromStore(new SqliteThreadStore(file));
    const c = await b.createAccount({ credits: 500 * 20, agreements: ['lines'] });
    const requests = Array.from({ length: 500 }, () => request(b, c.account));
    const closed = b.close(); // while the requests are in flight
    expect((await Promise.all(requests)).every((w) => w === 1)).toBe(true);
    await closed;
    // steps that arrived while the thread committed rode on the next batch
    expect(b.commits.totals.steps / b.commits.totals.batches).toBeGreaterThan(2);
    const direct = await Billing.fromStore(new SqliteStore(file));
    expect(await direct.balance(c.account)).toBe(0);
    expect(await direct.store.ledgerCount(c.account)).toBe(500);
    expect((await direct.findAccount({ id: c.account }))!.reserved).toBe(0);
    await direct.close();
  });

  it('close() ends the store thread and its checkpointer by themselves, their connections closed (no thread terminated)', async () => {
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    try {
      const b = await Billing.fromStore(new SqliteThreadStore(join(dir, 'ends.sqlite')));
      const c = await b.createAccount({ credits: 100, agreements: ['lines'] });
      expect(await request(b, c.account)).toBe(1);
      await new Promise((r) => setTimeout(r, 250)); // the checkpointer has ticked with its connection open
      const started = performance.now();
      await b.close();
      expect(performance.now() - started).toBeLessThan(2_000); // not the fallback's 5 s
      expect(terminate).not.toHaveBeenCalled();
    } finally {
      terminate.mockRestore();
    }
  });

  it('close() does not wait for a checkpointer that has already ended', async () => {
    let checkpointer: Worker | undefined;
    class Watched extends SqliteThreadStore {
      protected override startCheckpointer(): Worker | undefined {
        return (checkpointer = super.startCheckpointer());
      }
    }
    const b = await Billing.fromStore(new Watched(join(dir, 'ended.sqlite')));
    await b.createAccount({ credits: 10, agreements: ['lines'] });
    await checkpointer!.terminate(); // as a crash of that thread would end it
    const started = performance.now();
    await b.close();
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('a thread that dies answers the coded 503 to every waiting call (no hang); the next call starts a new thread', async () => {
    const file = join(dir, 'crash.sqlite');
    const store = new SqliteThreadStore(file);
    const b = await Billing.fromStore(store);
    const c = await b.createAccount({ credits: 1000 * 20, agreements: ['lines'] });
    const inFlight = Array.from({ length: 800 }, () => request(b, c.account).then(() => 'ok', (e: unknown) => e));
    // the crash lands while the reserves are on the thread: the group commit posts them after this
    // turn (crashed sooner, a thread that stops fast would be replaced before anything was sent)
    await new Promise((r) => setImmediate(r));
    await store.crashForTest();
    const outcomes = await Promise.all(inFlight);
    const failed = outcomes.filter((o) => o !== 'ok');
    expect(failed.length).toBeGreaterThan(0);
    for (const e of failed) {
      expect(e).toBeInstanceOf(ServiceError);
      expect((e as ServiceError).status).toBe(503);
      expect((e as ServiceError).name).toBe('ADDR_ERR_STORE_UNAVAILABLE');
    }
    // a new thread on the same file: the store works again, and money stayed exact
    expect(await request(b, c.account)).toBe(1);
    await b.releaseExpired(); // nothing expired: live leases are kept
    const ok = outcomes.filter((o) => o === 'ok').length + 1;
    const ledger = await b.store.ledgerCount(c.account);
    const acc = (await b.findAccount({ id: c.account }))!;
    // each charged row was debited once; a reservation whose settle was lost still holds its credit until its lease ends
    expect(acc.credits).toBe(1000 * 20 - ledger * 20);
    expect(ledger).toBeGreaterThanOrEqual(ok);
    await b.close();
  });

  it('a file that cannot be opened fails the start with the store\'s own error', async () => {
    const blocker = join(dir, 'not-a-dir');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(blocker, 'x');
    await expect(Billing.fromStore(new SqliteThreadStore(join(blocker, 'b.sqlite')))).rejects.toThrow(/EEXIST|ENOTDIR|not a directory/);
  });
});

/**
 * The log's frames and how many of them a checkpoint has copied back, read from the WAL index
 * (the `-shm` file; SQLite's file format: mxFrame at byte 16 of the index header, nBackfill at
 * byte 96, in native byte order).
 */
function walState(file: string): { frames: number; checkpointed: number } {
  const shm = readFileSync(`${file}-shm`);
  return { frames: shm.readUInt32LE(16), checkpointed: shm.readUInt32LE(96) };
}

describe('WAL checkpoints off the committing thread', () => {
  it('the checkpointer thread copies the log back while the store thread only commits; the safety net alone would not', async () => {
    const commitMany = async (b: Billing) => {
      const c = await b.createAccount({ credits: 200 * 20, agreements: ['lines'] });
      for (let i = 0; i < 200; i++) await b.charge(c.account, 'lines', 1, [(() => { const rid = newRequestId(); return { id: ledgerId(c.account, 'lines', { kind: 'http', requestid: rid }, 0), requestid: rid }; })()]);
    };
    // control: the store thread's own connection, with checkpoints left to another thread, leaves the log alone
    const alone = join(dir, 'no-checkpointer.sqlite');
    const direct = await Billing.fromStore(new SqliteStore(alone, { checkpoints: 'thread' }));
    await commitMany(direct);
    const before = walState(alone);
    expect(before.frames).toBeGreaterThan(100);
    expect(before.checkpointed).toBe(0);
    await direct.close();

    const file = join(dir, 'checkpointed.sqlite');
    const b = await Billing.fromStore(new SqliteThreadStore(file));
    await commitMany(b);
    let s = walState(file);
    for (let t = 0; t < 40 && !(s.frames > 0 && s.checkpointed === s.frames); t++) {
      await new Promise((r) => setTimeout(r, 50));
      s = walState(file);
    }
    expect(s.frames).toBeGreaterThan(0);
    expect(s.checkpointed).toBe(s.frames);
    await b.close();
  });
});
