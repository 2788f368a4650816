/**
 * The SQLite store's ledger insert (src/billing/sqlite/ledger-rows.ts), its two ways in alternating
 * rounds: a settle's rows in one statement (entries alike but for their ids, as every settle's are)
 * and one by one (the same entries with one whose time differs, which takes the loop). Each round
 * writes ROWS rows in slices of 2,000 (a Kafka slice) into a fresh file store — WAL,
 * `synchronous=NORMAL`, SQLite's own checkpoints — and reports the process's CPU per 100,000 rows,
 * commits and checkpoints included.
 *
 *   node tools/sqlite-ledger-insert.ts [ROUNDS] [ROWS]        (default 3 rounds of 200,000 rows)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { insertLedgerRows } from '../src/billing/sqlite/ledger-rows.ts';
import { SCHEMA } from '../src/billing/sqlite/schema.ts';
import type { LedgerEntry } from '../src/billing/store.ts';
import { median } from '../bench/support/median.ts';

const ROUNDS = Number(process.argv[2] ?? 3);
const ROWS = Number(process.argv[3] ?? 200_000);
const SLICE = 2000;
const ACCOUNT = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const JOB = 'kafka:Ab3dEf6hIj9kLm2nOp5qRs:bench-group';

/** CPU seconds per 100,000 rows of one way into a fresh store. */
function run(oneStatement: boolean): number {
  const dir = mkdtempSync(join(tmpdir(), 'addrflow-ledger-insert-'));
  const db = new DatabaseSync(join(dir, 'billing.sqlite'));
  try {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
    db.exec(SCHEMA);
    db.prepare(`INSERT INTO accounts (id, license_hash, guid_hash, credits, created_at) VALUES (?, 'l', 'g', -1, 't')`).run(ACCOUNT);
    const cache = new Map<string, StatementSync>();
    const statement = (sql: string): StatementSync => cache.get(sql) ?? cache.set(sql, db.prepare(sql)).get(sql)!;
    const before = process.cpuUsage();
    for (let at = 0; at < ROWS; at += SLICE) {
      const time = new Date().toISOString();
      const entries: LedgerEntry[] = [];
      for (let i = 0; i < SLICE; i++) {
        entries.push({ id: `${ACCOUNT}/lines/${JOB}/${(at / SLICE) % 4}/${at + i}`, account: ACCOUNT, function: 'lines', credits: 1, requestid: 'bench', time });
      }
      if (!oneStatement) entries[SLICE - 1] = { ...entries[SLICE - 1]!, time: `${time} ` };
      db.exec('BEGIN IMMEDIATE');
      const r = insertLedgerRows(db, statement, ACCOUNT, entries, 0);
      db.exec('COMMIT');
      if (r.written !== SLICE) throw new Error(`wrote ${r.written} of ${SLICE}`);
    }
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1e6 / (ROWS / 100_000);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const one: number[] = [];
const loop: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  one.push(run(true));
  loop.push(run(false));
  console.log(`round ${round}: one statement ${one.at(-1)!.toFixed(3)} s, one by one ${loop.at(-1)!.toFixed(3)} s of CPU per 100,000 rows`);
}
console.log(`medians: one statement ${median(one).toFixed(3)} s, one by one ${median(loop).toFixed(3)} s per 100,000 rows; ratio ${(median(one) / median(loop)).toFixed(2)}`);
