/**
 * Worker thread of bench/lookup-rss.ts: opens the shared index (a view over the SharedArrayBuffer,
 * no copy), runs the queries through the engine (validation + lookup, as a pool worker does), then
 * collects its own garbage so that the parent measures what a thread keeps, not what it happened
 * not to have collected yet.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { openIndex } from '../src/engine/index/index.ts';
import { processElement } from '../src/engine/process.ts';

const { sab, queriesFile, rounds } = workerData as { sab: SharedArrayBuffer; queriesFile: string; rounds: number };
const ctx = { index: openIndex(sab) };
let lookups = 0, housenumber = 0;
{
  const queries = JSON.parse(readFileSync(queriesFile, 'utf8')) as unknown[];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const o = processElement('search', q, ctx);
      lookups++;
      if (o.ok && (o.record as { matchlevel?: string }).matchlevel === 'housenumber') housenumber++;
    }
  }
}
for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
parentPort!.postMessage({ lookups, housenumber });
parentPort!.once('message', () => process.exit(0));
