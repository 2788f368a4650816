/**
 * Choosing the JSON-array reader (issue 5): stream-json's `streamArray` against the project's
 * byte-level element splitter (src/adapters/file/json-array-reader.ts), on the same generated
 * file, in MB/s, with the raw read speed of the file as the baseline, all in this run.
 *
 * The two do different amounts of work by design: stream-json builds every element as an object
 * on the reading thread; the splitter only finds element boundaries and hands raw bytes to the
 * worker pool, which parses them in parallel. The comparison is what the main thread pays.
 *
 *   npm run bench -- json-array
 */
import { createReadStream, existsSync, mkdirSync, statSync, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parser } from 'stream-json';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { readJsonArrayBatches } from '../src/adapters/file/json-array-reader.ts';
import { generateLines } from '../scripts/generate-requests.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const N = process.env.ADDRFLOW_BENCH_QUICK === '1' ? 100_000 : 500_000;
const path = `${root}.cache/bench/array-${N}.json`;
mkdirSync(`${root}.cache/bench`, { recursive: true });
if (!existsSync(path)) {
  const out = createWriteStream(path);
  let buf = '[\n';
  let first = true;
  for (const line of generateLines(N, 3, 0)) {
    buf += (first ? '' : ',\n') + line;
    first = false;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf + '\n]\n');
  await once(out, 'close');
}
const mb = statSync(path).size / 1e6;
const open = () => createReadStream(path, { highWaterMark: 1 << 20 });

async function time(label: string, fn: () => Promise<number>): Promise<number> {
  const t = performance.now();
  const count = await fn();
  const s = (performance.now() - t) / 1000;
  if (count !== N && label !== 'raw read') throw new Error(`${label}: ${count} elements, expected ${N}`);
  console.log(`${label.padEnd(36)} ${(mb / s).toFixed(1).padStart(7)} MB/s  (${s.toFixed(2)} s)`);
  return mb / s;
}

console.log(`input: ${N.toLocaleString('en')} elements, ${mb.toFixed(0)} MB`);
const raw = await time('raw read', async () => {
  let n = 0;
  for await (const c of open()) n += (c as Buffer).length;
  return n;
});
const sj = await time('stream-json parser + streamArray', async () => {
  let n = 0;
  for await (const _ of open().pipe(parser.asStream()).pipe(streamArray.asStream())) n++;
  return n;
});
const ours = await time('byte-level splitter (raw elements)', async () => {
  let n = 0;
  for await (const b of readJsonArrayBatches(open(), 1000)) n += b.positions.length;
  return n;
});
console.log(`splitter / stream-json: ${(ours / sj).toFixed(1)}×; splitter / raw read: ${(ours / raw).toFixed(2)}; stream-json / raw read: ${(sj / raw).toFixed(2)}`);
