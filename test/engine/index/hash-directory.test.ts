/**
 * The hash directory (src/engine/index/hash-directory.ts) must answer exactly what a binary
 * search of the whole sorted array answers: for hashes present and absent, repeated hashes, the
 * ends of the 32-bit range, empty and tiny arrays, and arrays large enough for many buckets.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../eval/support/prng.ts';
import { HashDirectory } from '../../../src/engine/index/hash-directory.ts';

function lowerBound(a: Uint32Array, h: number): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < h) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function sortedHashes(n: number, seed: number, repeat: number): Uint32Array {
  const rnd = mulberry32(seed);
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = i > 0 && rnd() < repeat ? a[i - 1]! : Math.floor(rnd() * 2 ** 32);
  return a.sort();
}

describe('HashDirectory.lowerBound', () => {
  const probes = (a: Uint32Array, rnd: () => number): number[] => [
    0, 1, 0xffffffff, 0xfffffffe, 0x80000000, 0x7fffffff,
    ...Array.from(a.subarray(0, 200)), ...Array.from({ length: 500 }, () => Math.floor(rnd() * 2 ** 32)),
    ...Array.from({ length: 200 }, () => a.length ? (a[Math.floor(rnd() * a.length)]! + (rnd() < 0.5 ? 1 : -1)) >>> 0 : 0),
  ];
  for (const [n, repeat] of [[0, 0], [1, 0], [5, 0.5], [100, 0], [10_000, 0.1], [300_000, 0.02]] as const) {
    it(`agrees with a binary search of the whole array (${n} hashes${repeat ? ', repeats' : ''})`, () => {
      const a = sortedHashes(n, 7 + n, repeat);
      const dir = new HashDirectory(a);
      const rnd = mulberry32(n + 1);
      for (const h of probes(a, rnd)) expect(dir.lowerBound(h), `hash ${h}`).toBe(lowerBound(a, h));
    });
  }

  it('holds hashes that all share their top bits', () => {
    const a = new Uint32Array([0xabc00000, 0xabc00001, 0xabc00001, 0xabcfffff, 0xabd00000]);
    const dir = new HashDirectory(a);
    for (const h of [0, 0xabbfffff, 0xabc00000, 0xabc00001, 0xabc00002, 0xabcfffff, 0xabd00000, 0xabd00001, 0xffffffff]) {
      expect(dir.lowerBound(h)).toBe(lowerBound(a, h));
    }
  });
});
