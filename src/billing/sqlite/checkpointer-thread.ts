/**
 * WAL checkpoints of the billing store, on a thread of their own.
 *
 * In WAL mode SQLite copies the log back into the database file (a checkpoint, with an fsync of
 * each) on the connection whose commit pushes the log past 1,000 pages: that commit, and every
 * request waiting for the next one, then waits several milliseconds. Measured on the store's own
 * group commits (5 charges each, docs/performance.md): without automatic checkpoints on the
 * committing connection, commits over 2 ms fell from 2.5–3 % to 0.6–1 %, and their p99 from 6–8 to
 * 1–2 ms. So the store thread (store-thread.ts) leaves checkpoints to this thread: its own
 * connection runs a PASSIVE checkpoint every CHECKPOINT_EVERY_MS, which never blocks a writer (it
 * copies what is committed and stops at what is being written); the next commit after a complete
 * one starts the log again from its beginning. The store connection keeps an automatic checkpoint
 * as a safety net at SAFETY_NET_PAGES, should this thread fall behind or stop.
 *
 * Durability is unchanged: with `synchronous = NORMAL` a commit is durable once a checkpoint (or
 * the next log sync) has reached it; they now come every CHECKPOINT_EVERY_MS under load rather than
 * every 1,000 pages.
 */
import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

export const CHECKPOINT_EVERY_MS = 100;
/** The store connection's own automatic checkpoint, used only if this thread falls behind (64 MiB of log). */
export const SAFETY_NET_PAGES = 16_000;
/** The message that asks the thread to close its connection and end. */
export const STOP = 'stop';

/** What the thread is started with (the module is also imported for its constants). */
export interface CheckpointerData {
  role: 'checkpointer';
  path: string;
}

const data = workerData as Partial<CheckpointerData> | null;
if (parentPort && data?.role === 'checkpointer') {
  const path = data.path!;
  const port = parentPort;
  let db: DatabaseSync | undefined;
  const timer = setInterval(() => {
    try {
      db ??= walConnection(path);
      db?.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch {
      // busy: the next tick tries again, and the safety net stays
    }
  }, CHECKPOINT_EVERY_MS);
  // asked to stop (SqliteThreadStore.close): the connection is closed here, between two ticks, and
  // the thread ends by itself, rather than being terminated with its connection open
  port.on('message', (m: unknown) => {
    if (m !== STOP) return;
    clearInterval(timer);
    db?.close();
    db = undefined;
    port.close();
  });
}

/**
 * A connection to the store's file once the store thread has put it in WAL mode (it creates the
 * file and sets the mode; a connection opened before would checkpoint nothing); else undefined.
 */
function walConnection(path: string): DatabaseSync | undefined {
  if (!existsSync(path)) return undefined;
  const db = new DatabaseSync(path, { timeout: 0 });
  const mode = (db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode;
  if (mode !== 'wal') {
    db.close();
    return undefined;
  }
  db.exec('PRAGMA synchronous = NORMAL');
  return db;
}
