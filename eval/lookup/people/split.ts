/**
 * The fixed rules of the people sets, decided before any tuning: a seeded sample (mulberry32,
 * eval/support/prng.ts) and the split of every case into a **tune** half and a **measured** half
 * by a hash of the case id (FNV-1a 32-bit, low bit: even = tune, odd = measured). The split
 * depends on the id alone, never on the engine's answers, so it stays fixed while the engine
 * changes.
 */
import { mulberry32 } from '../../support/prng.ts';

export type Half = 'tune' | 'measured';

/** FNV-1a 32-bit over the UTF-16 code units of s. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function halfOf(id: string): Half {
  return (fnv1a(id) & 1) === 0 ? 'tune' : 'measured';
}

/**
 * The half of a later set (misspelt places): FNV-1a with its bits mixed (MurmurHash3's finaliser),
 * so that the low bit depends on every character of the id. The first sets' `halfOf` takes the low
 * bit of FNV-1a alone, which ids that differ only in two characters can share; it stays as fixed.
 */
export function mixedHalfOf(id: string): Half {
  let h = fnv1a(id);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h & 1) === 0 ? 'tune' : 'measured';
}

/** n items of a, drawn without replacement by a seeded PRNG, in their original order. */
export function seededSample<T>(a: readonly T[], n: number, seed: number): T[] {
  if (n >= a.length) return [...a];
  const rnd = mulberry32(seed);
  const idx = new Set<number>();
  while (idx.size < n) idx.add(Math.floor(rnd() * a.length));
  return [...idx].sort((x, y) => x - y).map((i) => a[i]!);
}
