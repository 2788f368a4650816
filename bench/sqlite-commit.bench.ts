/**
 * The SQLite billing store's group commits as `serve` makes them: batches of 5 single-record
 * `charge` steps, one after the other, each timed from submit to answer. Two stores in the same
 * run, interleaved in rounds so that both see the same machine:
 *   - baseline: the store on its thread with SQLite's automatic checkpoint (the committing
 *     connection copies the log back every 1,000 pages);
 *   - `serve`'s store: SqliteThreadStore, whose checkpoints run on a thread of their own
 *     (src/billing/sqlite/checkpointer-thread.ts).
 * Prints each one's commit latency (p50, p99, p99.9, max, share over 2 ms) and the ratios.
 *
 *   npm run bench -- sqlite-commit      (ADDRFLOW_BENCH_COMMITS=N batches per round, default 4000)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SqliteThreadStore } from '../src/billing/sqlite/thread-store.ts';
import type { BillingStore, MoneyStep } from '../src/billing/store.ts';

const COMMITS = Number(process.env.ADDRFLOW_BENCH_COMMITS ?? 4000);
const ROUNDS = 3;
const PER_COMMIT = 5;

/** The baseline: the same store thread, without the checkpointer (the checkpointer's Worker is never started). */
class AutoCheckpointThreadStore extends SqliteThreadStore {
  protected override startCheckpointer(): Worker | undefined {
    return undefined;
  }
}

let next = 0;
function charges(account: string): MoneyStep[] {
  return Array.from({ length: PER_COMMIT }, () => {
    const id = `bench-${next++}`;
    return {
      kind: 'charge', reservation: { id, accountId: account, amount: 20, createdAt: new Date().toISOString(), expiresAt: new Date().toISOString() },
      entries: [{ id: `${account}.lines.${id}`, account, function: 'lines', credits: 20, requestid: id, time: new Date().toISOString() }],
    };
  });
}

async function round(store: BillingStore): Promise<number[]> {
  await store.init();
  await store.createAccount({ id: 'bench', licenseHash: 'l', guidHash: 'g', credits: 1e12, reserved: 0, agreements: ['lines'], disabled: false, createdAt: new Date().toISOString() });
  for (let i = 0; i < 200; i++) await store.batch(charges('bench')); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < COMMITS; i++) {
    const t = performance.now();
    await store.batch(charges('bench'));
    ms.push(performance.now() - t);
  }
  await store.close();
  return ms;
}

const dir = mkdtempSync(join(tmpdir(), 'addrflow-sqlite-commit-'));
const all = { auto: [] as number[], thread: [] as number[] };
try {
  for (let r = 0; r < ROUNDS; r++) {
    all.auto.push(...await round(new AutoCheckpointThreadStore(join(dir, `auto-${r}.sqlite`))));
    all.thread.push(...await round(new SqliteThreadStore(join(dir, `thread-${r}.sqlite`))));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { p50: q(0.5), p99: q(0.99), p999: q(0.999), max: s[s.length - 1]!, over2: s.filter((x) => x > 2).length / s.length };
}
const a = stats(all.auto), t = stats(all.thread);
const line = (name: string, x: ReturnType<typeof stats>) =>
  console.log(`${name.padEnd(52)} p50 ${x.p50.toFixed(3)}  p99 ${x.p99.toFixed(3)}  p99.9 ${x.p999.toFixed(3)}  max ${x.max.toFixed(1)} ms  over 2 ms ${(100 * x.over2).toFixed(2)} %`);
console.log(`${ROUNDS} rounds × ${COMMITS} group commits of ${PER_COMMIT} charges each, per store`);
line('baseline: automatic checkpoint on the committing thread', a);
line('serve: checkpoints on their own thread', t);
console.log(`ratio (serve / baseline): p99 ${(t.p99 / a.p99).toFixed(2)}, p99.9 ${(t.p999 / a.p999).toFixed(2)}, commits over 2 ms ${(t.over2 / a.over2).toFixed(2)}`);
