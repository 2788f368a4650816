/**
 * `npm run bench [-- name…]`: runs every bench/*.bench.ts (or those whose name contains one of the
 * arguments), each in its own Node process so that one benchmark's heap and JIT state do not
 * colour the next. Each benchmark prints its own numbers and its ratio to a same-run baseline.
 */
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches ${filters.join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f}`);
  const r = spawnSync(process.execPath, ['--expose-gc', dir + f], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`${f} exited with ${r.status ?? r.signal}`);
  }
}
process.exit(failed ? 1 : 0);
