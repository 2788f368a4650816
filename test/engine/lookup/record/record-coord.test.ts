/** Coordinates are printed in integer arithmetic; they must read exactly as float formatting did. */
import { describe, expect, it } from 'vitest';
import { COORD_SCALE, NO_COORD } from '../../../../src/engine/index/format.ts';
import { coord } from '../../../../src/engine/lookup/record/record.ts';

const byFloat = (v: number) => (v / COORD_SCALE).toFixed(7).replace(/\.?0+$/, '');

describe('coord', () => {
  it('prints what toFixed(7) without trailing zeros prints', () => {
    const edge = [0, 1, -1, 5, -5, 10, 100, 1e6, 1e7, -1e7, 1e7 + 1, 123_456_789, -123_456_789, 1_800_000_000, -1_800_000_000, 900_000_000, 2 ** 31 - 1, -(2 ** 31) + 1, 485_000_000, 23_900_010];
    for (const v of edge) expect(coord(v), String(v)).toBe(byFloat(v));
    let x = 12345;
    for (let i = 0; i < 200_000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) | 0;
      const v = i % 3 === 0 ? x : i % 3 === 1 ? x % 100_000 : (x % 20_000) * 1000;
      if (v !== NO_COORD) expect(coord(v)).toBe(byFloat(v));
    }
    expect(coord(NO_COORD)).toBe('');
  });
});
