/**
 * The first-use build of the embedded default index (what `loadDefaultIndex` does on a fresh
 * cache), measured: CPU time of the process (process.cpuUsage, all threads, user + system), wall
 * time, peak RSS and the CPU time of each build phase, plus a SHA-256 of the index bytes with
 * `builtAt` blanked, so that two checkouts' builds can be compared byte for byte.
 *
 *   node tools/default-index-build.ts [--root DIR] [--out FILE] [--first-use]
 *
 * DIR is a checkout whose src/data is used (default: this tree; e.g. `git archive BASE src | tar
 * -x -C /tmp/base` and `--root /tmp/base`). Run it once per checkout, alternating, in fresh
 * processes (each is a first use: nothing cached). Add `node --cpu-prof` for a profile.
 * --first-use  times `loadDefaultIndex` itself into a fresh cache directory (build, write, read
 *              back), as a command's first search does; without it, the build alone, per phase.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = 'usage: node tools/default-index-build.ts [--root DIR] [--out FILE]';
const { values } = parseArgs({
  options: { root: { type: 'string' }, out: { type: 'string' }, 'first-use': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const root = resolve(values.root ?? new URL('..', import.meta.url).pathname);

const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const t0 = performance.now();
const c0 = cpuMs();
const phases: [string, number][] = [];
let phase = 'modules', at = c0;
const mark = (next: string) => { const now = cpuMs(); phases.push([phase, now - at]); phase = next; at = now; };
let bytes: Uint8Array;
if (values['first-use']) {
  const cache = mkdtempSync(join(tmpdir(), 'addrflow-first-use-'));
  process.env.ADDRFLOW_CACHE_DIR = cache;
  const { loadDefaultIndex } = await import(resolve(root, 'src/data/index-file.ts'));
  mark('loadDefaultIndex');
  bytes = new Uint8Array(await loadDefaultIndex() as SharedArrayBuffer);
  mark('');
  rmSync(cache, { recursive: true, force: true });
} else {
  const { IndexBuilder } = await import(resolve(root, 'src/data/index-builder.ts'));
  const { addDefaultLayer } = await import(resolve(root, 'src/data/build-index.ts'));
  mark('read');
  const b = new IndexBuilder({ progress: { phase: mark, tick() {} } });
  await addDefaultLayer(b);
  bytes = b.build();
  mark('');
}
const wallMs = performance.now() - t0;
const totalCpu = cpuMs() - c0;

/** The bytes with the build time (`"builtAt":"…"` in the header's JSON) blanked: same length. */
function withoutBuiltAt(a: Uint8Array): Uint8Array {
  const head = Buffer.from(a.buffer, a.byteOffset, Math.min(a.length, 1 << 20)).toString('latin1');
  const i = head.indexOf('"builtAt":"');
  if (i < 0) return a;
  const copy = a.slice();
  for (let k = i + 11; copy[k] !== 0x22; k++) copy[k] = 0x30;
  return copy;
}

if (values.out) writeFileSync(values.out, bytes);
const round = (x: number) => Math.round(x);
console.log(JSON.stringify({
  root,
  cpuMs: round(totalCpu),
  wallMs: round(wallMs),
  maxRssMB: round(process.resourceUsage().maxRSS / 1024),
  bytes: bytes.length,
  sha256WithoutBuiltAt: createHash('sha256').update(withoutBuiltAt(bytes)).digest('hex'),
  phaseCpuMs: Object.fromEntries(phases.filter(([, ms]) => ms >= 1).map(([n, ms]) => [n, round(ms)])),
  loadavg: loadavg().map((x) => Math.round(x * 10) / 10),
}));
