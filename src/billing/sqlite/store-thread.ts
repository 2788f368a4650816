/**
 * The SQLite store's thread (`SqliteThreadStore`, thread-store.ts): it owns the connection and
 * runs each call it is sent, in the order sent, on the synchronous `SqliteStore`, so that the
 * thread that sent it (the HTTP server's event loop) never waits on SQLite. One message in, one
 * answer out; a group commit is one `batch` call, one transaction.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MoneyStep, MoneyStepResult } from '../store.ts';
import {
  BATCH_AFTER_WORK, BATCH_PACKED, packResult, unpackStep, type PackedStep, type PackedWorkResult,
} from './packed-steps.ts';
import { SqliteStore } from './store.ts';
import { loadWork, type ThreadWork, type WorkDone } from './thread-work.ts';

/**
 * What the thread is started with: the file, who checkpoints its log (checkpointer-thread.ts) and
 * the work it may run before a charge commits (thread-work.ts).
 */
export interface StoreThreadData {
  path: string;
  checkpoints: 'auto' | 'thread';
  work?: ThreadWork;
}

/** A call of a store method. */
export interface StoreCall {
  id: number;
  method: string;
  args: unknown[];
}

/**
 * Its answer: the method's value, or its error: name, message and the error's own fields of plain
 * values (`code`, `errcode`, `errstr` of node:sqlite, `syscall`, `path` of a file error), so
 * that the caller tells the errors apart as it would the direct store's (src/cli/fault.ts).
 */
export type StoreReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string; fields: Record<string, string | number | boolean> } };

/** The methods a call may name: the BillingStore interface (sqlite/store.ts), nothing private. */
export const STORE_METHODS: ReadonlySet<string> = new Set([
  'init', 'close', 'createAccount', 'findAccount', 'topup', 'setAgreements', 'setDisabled', 'reserve', 'settle', 'release',
  'batch', 'renew', 'releaseExpired', 'ledger', 'ledgerCount', 'ledgerEntry', 'unexported', 'markMirrored', 'ledgerIdsPresent',
  'claimIdempotencyKey', 'completeIdempotencyKey', 'abandonIdempotencyKey', 'sweepIdempotencyKeys', 'getMaintenance', 'setMaintenance',
]);

/**
 * The packed steps in one transaction, their answers packed. A step with a task (`batchAfterWork`)
 * runs its work first, outside the transaction (which stays as short as a plain batch's), and is
 * answered with the work's result; a charge whose record is not chargeable is committed without
 * its entries (its 402 decision all the same).
 */
async function batchPacked(store: SqliteStore, steps: PackedStep[], tasks: unknown[] = [], run?: (task: unknown) => WorkDone): Promise<PackedWorkResult[]> {
  const done: Array<WorkDone | undefined> = steps.map((_, i) => (tasks[i] === undefined ? undefined : run!(tasks[i])));
  const unpacked: MoneyStep[] = steps.map((p, i) => {
    const s = unpackStep(p);
    if (done[i] === undefined || done[i]!.chargeable) return s;
    if (s.kind !== 'charge') throw new Error(`work given with a ${s.kind} step; only a charge takes work`);
    return { ...s, entries: [] };
  });
  const results: MoneyStepResult[] = await store.batch(unpacked);
  return results.map((r, i) => {
    const packed = packResult(steps[i]!, r);
    return done[i] === undefined ? packed : { worked: packed, result: done[i]!.result };
  });
}

if (parentPort) {
  const port = parentPort;
  // a file that cannot be opened fails every call with the same error as the direct store would
  let store: SqliteStore | undefined;
  let run: ((task: unknown) => WorkDone) | undefined;
  let openError: unknown;
  try {
    const { path, checkpoints, work } = workerData as StoreThreadData;
    store = new SqliteStore(path, { checkpoints });
    if (work) run = loadWork(work);
  } catch (err) {
    openError = err;
  }
  const call = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  port.on('message', (m: StoreCall) => {
    let reply: StoreReply;
    try {
      if (openError !== undefined) throw openError;
      if (!STORE_METHODS.has(m.method) && m.method !== BATCH_PACKED && m.method !== BATCH_AFTER_WORK) throw new Error(`not a store method: ${m.method}`);
      if (m.method === BATCH_AFTER_WORK && !run) throw new Error('this store thread was started without work');
      // every SqliteStore method completes synchronously: its promise is already settled
      const answer = m.method === BATCH_PACKED ? batchPacked(store!, m.args[0] as PackedStep[])
        : m.method === BATCH_AFTER_WORK ? batchPacked(store!, m.args[0] as PackedStep[], m.args[1] as unknown[], run)
        : call[m.method]!(...m.args);
      void answer.then(
        (value) => port.postMessage({ id: m.id, ok: true, value } satisfies StoreReply),
        (err: unknown) => port.postMessage(failure(m.id, err)),
      ).then(() => {
        // the connection closed and its answer sent: the thread ends by itself (no terminate)
        if (m.method === 'close') port.close();
      });
      return;
    } catch (err) {
      reply = failure(m.id, err);
    }
    port.postMessage(reply);
  });
}

function failure(id: number, err: unknown): StoreReply {
  const e = err instanceof Error ? err : new Error(String(err));
  const fields: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(e)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') fields[k] = v;
  return { id, ok: false, error: { name: e.name, message: e.message, fields } };
}
