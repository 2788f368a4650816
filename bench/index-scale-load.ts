/**
 * Child process of bench/index-scale-oa.bench.ts: times loading DIR/index.bin into one
 * SharedArrayBuffer and opening it, in a fresh process. Prints { loadMs, bytes }.
 */
import { loadIndexFile } from '../src/data/index-file.ts';
import { openIndex } from '../src/engine/index/index.ts';

const t = performance.now();
const sab = await loadIndexFile(process.argv[2]!);
openIndex(sab);
console.log(JSON.stringify({ loadMs: performance.now() - t, bytes: sab.byteLength }));
