import { describe, expect, it } from 'vitest';
import { PolygonGrid } from '../../../src/data/build/polygon-grid.ts';
import { pointInRings } from '../../../src/data/geo.ts';
import { mulberry32 } from '../../../eval/support/prng.ts';

/** A star-shaped ring of `n` vertices around (cx, cy), radius varying between r0 and r1. */
function star(n: number, cx: number, cy: number, r0: number, r1: number, seed: number): Float64Array {
  const rnd = mulberry32(seed);
  const c = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    const a = (i / n) * 2 * Math.PI;
    const r = r0 + (r1 - r0) * rnd();
    c[2 * i] = cx + r * Math.cos(a);
    c[2 * i + 1] = cy + r * Math.sin(a);
  }
  return c;
}

describe('PolygonGrid (edge grid point-in-polygon)', () => {
  it('answers exactly as the ray cast over every edge, holes included', () => {
    const rings = [star(5000, 10, 45, 0.5, 1, 1), star(300, 10, 45, 0.1, 0.2, 2), star(200, 10.6, 45, 0.05, 0.1, 3)];
    const g = new PolygonGrid(rings);
    const rnd = mulberry32(7);
    let inside = 0;
    for (let i = 0; i < 20_000; i++) {
      const x = 8.8 + rnd() * 2.4, y = 43.8 + rnd() * 2.4;
      const want = pointInRings(rings, y, x);
      expect(g.contains(x, y)).toBe(want);
      if (want) inside++;
    }
    expect(inside).toBeGreaterThan(4_000);
  });
  it('handles a square, points outside the box, and a degenerate ring', () => {
    const sq = Float64Array.from([0, 0, 1, 0, 1, 1, 0, 1]);
    const g = new PolygonGrid([sq, Float64Array.from([5, 5])]);
    expect(g.contains(0.5, 0.5)).toBe(true);
    expect(g.contains(1.5, 0.5)).toBe(false);
    expect(g.contains(-0.1, 0.5)).toBe(false);
    expect(g.contains(0.999, 0.001)).toBe(true);
  });
});
