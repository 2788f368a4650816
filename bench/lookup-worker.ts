/** Worker for bench/lookup.bench.ts: opens the shared index (no copy) and runs lookups. */
import { parentPort, workerData } from 'node:worker_threads';
import { openIndex } from '../src/engine/index/index.ts';
import { lookup } from '../src/engine/lookup/index.ts';
import type { SearchRequest } from '../src/contract/requests.ts';

const { sab, queries } = workerData as { sab: SharedArrayBuffer; queries: SearchRequest[] };
const index = openIndex(sab);
let n = 0;
for (const q of queries) if (lookup(index, q).matchlevel === 'housenumber') n++;
parentPort!.postMessage({ done: n });
parentPort!.once('message', () => process.exit(0));
