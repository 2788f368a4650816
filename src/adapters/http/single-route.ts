/**
 * Where a single record's engine runs (issue 20). On SQLite, `serve` gives the store's thread the
 * work of a single lookup (single-work.ts): one thread hop instead of two. That thread is one lane:
 * the event loop and it take two cores. With more cores than that, and once the thread is the
 * queue (at least STORE_BACKLOG_OVERFLOW steps wait for its next batch), a lookup overflows to the
 * engine pool's threads instead (two hops, then its charge rides in a later batch), so that a
 * large machine with a national index, whose lookups cost hundreds of µs, is not capped at one
 * lookup thread. On two cores there is no core to overflow to: measured, sending lookups to the
 * pool while the store's thread was busy cut single `search` from 7,600 to 5,200–5,800 req/s
 * (docs/performance.md).
 */
import { availableParallelism } from 'node:os';

/** Where a single record's engine ran: the event loop (a recipient block), the store's thread with its charge, or the engine pool. */
export type SingleThread = 'event_loop' | 'store' | 'pool';

/** Steps waiting for the store's next batch from which a lookup overflows to the pool (with cores to spare). */
export const STORE_BACKLOG_OVERFLOW = 16;

const CORES = availableParallelism();

export interface SingleRouteFacts {
  /** The store's thread runs a single record's work (SQLite under serve). */
  storeRunsWork: boolean;
  /** The runner runs the record on the event loop (a recipient block). */
  runsHere: boolean;
  /** The request has an Idempotency-Key: its answer is rendered before its charge stores it. */
  idempotent: boolean;
  /** Steps waiting for the store's next batch (GroupCommit.waiting). */
  waiting: number;
  /** Cores of the machine (default: availableParallelism()). */
  cores?: number;
}

/** Whether the record runs on the store's thread with its charge (else on the runner, then charged). */
export function onStoreThread(f: SingleRouteFacts): boolean {
  if (!f.storeRunsWork || f.runsHere || f.idempotent) return false;
  return (f.cores ?? CORES) <= 2 || f.waiting < STORE_BACKLOG_OVERFLOW;
}
