/**
 * The SQLite store on a thread of its own: the same `BillingStore`, whose connection lives on a
 * worker thread (store-thread.ts), so that the HTTP server's event loop never blocks on SQLite
 * (pino's rule: no synchronous I/O on the main thread in the hot path). Each method is one message
 * to the thread and one answer back; the thread runs the calls in the order sent, so a group
 * commit (`batch`) is one message, and the steps that arrive while the thread commits ride on
 * the next batch.
 *
 * - Money and idempotency are the thread's `SqliteStore`'s, unchanged: a settle stores its
 *   answer (`SettleOptions.answer`, a template, not a function) in its own transaction.
 * - `close()` is answered after every call sent before it: nothing submitted is lost.
 * - If the thread dies (a crash, out of memory), every call waiting on it fails with the coded 503
 *   `ADDR_ERR_STORE_UNAVAILABLE` (never a hang); the next call starts a new thread on the same
 *   file. A transaction the thread had not committed is rolled back by SQLite, so a request
 *   answered 503 was not charged; a reservation it had committed is released when its lease ends.
 * Used by `addrflow serve` and `addrflow consume` (open-store.ts, `thread: true`); the CLI and
 * file jobs call the synchronous store directly (see docs/http.md, "Stores").
 */
import { Worker } from 'node:worker_threads';
import type { Op } from '../../contract/params.ts';
import {
  StoreUnavailableError, type AccountRef, type AccountRow, type BillingStore, type IdempotencyClaim, type IdempotentAnswer, type LedgerEntry,
  type MoneyStep, type MoneyStepResult, type ReservationRow, type SettleOptions, type SettleResult, type StepWork, type WorkedCharge,
} from '../store.ts';
import { STOP, type CheckpointerData } from './checkpointer-thread.ts';
import {
  BATCH_AFTER_WORK, BATCH_PACKED, packStep, unpackResult, unpackWorkResult, type PackedResult, type PackedWorkResult,
} from './packed-steps.ts';
import type { StoreCall, StoreReply, StoreThreadData } from './store-thread.ts';
import type { ThreadWork } from './thread-work.ts';

/** The thread's error as the direct store would have thrown it: its message, name and fields. */
function rebuilt(error: Extract<StoreReply, { ok: false }>['error']): Error {
  const e = Object.assign(new Error(error.message), error.fields);
  if (e.name !== error.name) Object.defineProperty(e, 'name', { value: error.name, writable: true, configurable: true });
  return e;
}

/** How long a thread asked to end is given before it is terminated. */
const THREAD_END_MS = 5_000;

/** Resolves once the thread has ended, terminating it if it has not within THREAD_END_MS. */
function endOf(w: Worker): Promise<void> {
  return new Promise((resolve) => {
    // (terminate() also settles for a thread that had already ended, whose 'exit' has passed)
    const timer = setTimeout(() => void w.terminate().then(() => resolve(), () => resolve()), THREAD_END_MS);
    w.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const ENTRY = new URL('./store-thread.ts', import.meta.url);
const CHECKPOINTER = new URL('./checkpointer-thread.ts', import.meta.url);

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export class SqliteThreadStore implements BillingStore {
  readonly kind = 'sqlite' as const;
  readonly path: string;
  private worker: Worker | undefined;
  private checkpointer: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;
  /** What the thread runs before a charge commits (thread-work.ts), if anything. */
  private readonly work: ThreadWork | undefined;

  constructor(path: string, opts: { work?: ThreadWork } = {}) {
    this.path = path;
    this.work = opts.work;
  }

  get runsWork(): boolean {
    return this.work !== undefined;
  }

  /** The thread, started on first use (and again after a crash), with its checkpointer. */
  private thread(): Worker {
    if (this.worker) return this.worker;
    this.checkpointer ??= this.startCheckpointer();
    const data: StoreThreadData = { path: this.path, checkpoints: this.checkpointer ? 'thread' : 'auto', ...(this.work ? { work: this.work } : {}) };
    const w = new Worker(ENTRY, { workerData: data, ...(this.work?.resourceLimits ? { resourceLimits: this.work.resourceLimits } : {}) });
    w.unref(); // referenced only while a call waits (see call)
    w.on('message', (r: StoreReply) => this.answer(r));
    w.on('error', (err) => this.died(w, err));
    w.on('exit', (code) => this.died(w, new Error(`the SQLite store thread exited with code ${code}`)));
    this.worker = w;
    return w;
  }

  /** The log's checkpoints, off the thread that commits (checkpointer-thread.ts); none for `:memory:`. */
  protected startCheckpointer(): Worker | undefined {
    if (this.path === ':memory:') return undefined;
    const c = new Worker(CHECKPOINTER, { workerData: { role: 'checkpointer', path: this.path } satisfies CheckpointerData });
    c.unref();
    c.on('error', () => {}); // the store's own safety-net checkpoint takes over
    c.on('exit', () => {
      if (this.checkpointer === c) this.checkpointer = undefined; // nothing to stop at close
    });
    return c;
  }

  private call<T>(method: string, ...args: unknown[]): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the billing store is closed'));
    const w = this.thread();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.pending.size === 0) w.ref(); // a call in flight keeps the process alive
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      w.postMessage({ id, method, args } satisfies StoreCall);
    });
  }

  private answer(r: StoreReply): void {
    const p = this.pending.get(r.id);
    if (!p) return;
    this.pending.delete(r.id);
    if (this.pending.size === 0) this.worker?.unref();
    if (r.ok) p.resolve(r.value);
    else p.reject(rebuilt(r.error));
  }

  /** The thread is gone: every waiting call fails with the coded 503; the next call starts a new thread. */
  private died(w: Worker, err: Error): void {
    if (this.worker !== w) return; // already handled ('error' is followed by 'exit')
    this.worker = undefined;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    const e = new StoreUnavailableError(err);
    for (const p of waiting) p.reject(e);
  }

  /** Ends the thread abruptly, as a crash would (tests). */
  async crashForTest(): Promise<void> {
    await this.worker?.terminate();
  }

  init(): Promise<string> {
    return this.call('init');
  }

  /**
   * Every call sent before it answered, then both threads close their connections and end by
   * themselves; a thread that has not ended within THREAD_END_MS is terminated. A thread is not
   * terminated with a connection open: node:sqlite's teardown then races the thread's own.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    const w = this.worker;
    if (w) {
      const ended = endOf(w);
      const closed = await this.call('close').then(() => true, () => false); // answered after every call sent before it
      this.worker = undefined;
      await (closed ? ended : w.terminate());
    }
    const c = this.checkpointer;
    if (c) {
      this.checkpointer = undefined;
      const ended = endOf(c);
      c.postMessage(STOP);
      await ended;
    }
    this.closed = true;
  }

  createAccount(row: AccountRow): Promise<void> {
    return this.call('createAccount', row);
  }
  findAccount(ref: AccountRef): Promise<AccountRow | undefined> {
    return this.call('findAccount', ref);
  }
  topup(accountId: string, credits: number): Promise<AccountRow | undefined> {
    return this.call('topup', accountId, credits);
  }
  setAgreements(accountId: string, agreements: Op[]): Promise<AccountRow | undefined> {
    return this.call('setAgreements', accountId, agreements);
  }
  setDisabled(accountId: string, disabled: boolean): Promise<AccountRow | undefined> {
    return this.call('setDisabled', accountId, disabled);
  }
  reserve(reservation: ReservationRow): Promise<boolean> {
    return this.call('reserve', reservation);
  }
  settle(reservationId: string, accountId: string, entries: LedgerEntry[], opts?: SettleOptions): Promise<SettleResult> {
    return this.call('settle', reservationId, accountId, entries, opts);
  }
  release(reservationId: string): Promise<void> {
    return this.call('release', reservationId);
  }
  async batch(steps: readonly MoneyStep[]): Promise<MoneyStepResult[]> {
    // packed: the entries' shared fields once, the rows written by position (packed-steps.ts)
    const results = await this.call<PackedResult[]>(BATCH_PACKED, steps.map(packStep));
    return results.map((r, i) => unpackResult(steps[i]!, r));
  }
  async batchAfterWork(steps: readonly MoneyStep[], works: ReadonlyArray<StepWork | undefined>): Promise<Array<MoneyStepResult | WorkedCharge>> {
    const results = await this.call<PackedWorkResult[]>(BATCH_AFTER_WORK, steps.map(packStep), works.map((w) => w?.task));
    return results.map((r, i) => unpackWorkResult(steps[i]!, r));
  }
  renew(reservationIds: readonly string[], expiresAt: string): Promise<number> {
    return this.call('renew', reservationIds, expiresAt);
  }
  releaseExpired(now: string): Promise<number> {
    return this.call('releaseExpired', now);
  }
  ledger(accountId: string, limit?: number): Promise<LedgerEntry[]> {
    return this.call('ledger', accountId, limit);
  }
  ledgerCount(accountId: string): Promise<number> {
    return this.call('ledgerCount', accountId);
  }
  ledgerEntry(accountId: string, id: string): Promise<LedgerEntry | undefined> {
    return this.call('ledgerEntry', accountId, id);
  }
  unexported(accountId: string, ids: readonly string[]): Promise<LedgerEntry[]> {
    return this.call('unexported', accountId, ids);
  }
  markMirrored(accountId: string, scope: string, from: bigint, to: bigint): Promise<void> {
    return this.call('markMirrored', accountId, scope, from, to);
  }
  ledgerIdsPresent(accountId: string, ids: readonly string[]): Promise<Set<string>> {
    return this.call('ledgerIdsPresent', accountId, ids);
  }
  claimIdempotencyKey(accountId: string, key: string, fingerprint: string, now: string, staleBefore: string, expiredBefore: string): Promise<IdempotencyClaim> {
    return this.call('claimIdempotencyKey', accountId, key, fingerprint, now, staleBefore, expiredBefore);
  }
  completeIdempotencyKey(accountId: string, key: string, answer: IdempotentAnswer, now: string): Promise<void> {
    return this.call('completeIdempotencyKey', accountId, key, answer, now);
  }
  abandonIdempotencyKey(accountId: string, key: string): Promise<void> {
    return this.call('abandonIdempotencyKey', accountId, key);
  }
  sweepIdempotencyKeys(before: string): Promise<number> {
    return this.call('sweepIdempotencyKeys', before);
  }
  getMaintenance(): Promise<boolean> {
    return this.call('getMaintenance');
  }
  setMaintenance(on: boolean): Promise<void> {
    return this.call('setMaintenance', on);
  }
}
