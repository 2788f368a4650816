/**
 * OSM `addr:interpolation` ways: the house numbers between two address nodes of a way, placed
 * along the way at distances proportional to their numbers (odd/even: step 2, all: 1, N: N).
 */
import type { AddressPoint } from '../source-types.ts';

/**
 * @param refs    the way's node ids, in order
 * @param coords  the way's coordinates, [lon, lat] per node flattened (same order as `refs`)
 * @param addrNodes address points of the nodes that carry one
 * @param kind    the tag's value: odd, even, all, or a step
 */
export function interpolateAddresses(
  refs: readonly number[], coords: readonly number[], addrNodes: ReadonlyMap<number, AddressPoint>, kind: string,
): AddressPoint[] {
  const out: AddressPoint[] = [];
  const step = kind === 'odd' || kind === 'even' ? 2 : kind === 'all' ? 1 : Number(kind) || 0;
  if (step <= 0 || coords.length !== refs.length * 2) return out;
  // positions along the way of its address nodes
  const pts: { a: AddressPoint; idx: number }[] = [];
  refs.forEach((r, idx) => { const a = addrNodes.get(r); if (a) pts.push({ a, idx }); });
  for (let k = 0; k + 1 < pts.length; k++) {
    const p = pts[k]!, q = pts[k + 1]!;
    const n1 = parseInt(p.a.housenumber, 10), n2 = parseInt(q.a.housenumber, 10);
    if (!Number.isFinite(n1) || !Number.isFinite(n2) || n1 === n2 || Math.abs(n2 - n1) > 2000) continue;
    const dir = n2 > n1 ? 1 : -1;
    // cumulative length along the segment of the way between the two nodes
    const seg: number[] = [];
    for (let i = p.idx; i <= q.idx; i++) seg.push(coords[2 * i]!, coords[2 * i + 1]!);
    const cum = [0];
    for (let i = 2; i < seg.length; i += 2) cum.push(cum[cum.length - 1]! + Math.hypot(seg[i]! - seg[i - 2]!, seg[i + 1]! - seg[i - 1]!));
    const total = cum[cum.length - 1]!;
    for (let h = n1 + dir * step; dir > 0 ? h < n2 : h > n2; h += dir * step) {
      const f = (h - n1) / (n2 - n1);
      const target = f * total;
      let j = 1;
      while (j < cum.length - 1 && cum[j]! < target) j++;
      const t0 = cum[j - 1]!, t1 = cum[j]!;
      const u = t1 > t0 ? (target - t0) / (t1 - t0) : 0;
      const lon = seg[2 * (j - 1)]! + (seg[2 * j]! - seg[2 * (j - 1)]!) * u;
      const lat = seg[2 * (j - 1) + 1]! + (seg[2 * j + 1]! - seg[2 * (j - 1) + 1]!) * u;
      out.push({ ...p.a, housenumber: String(h), lat, lon });
    }
  }
  return out;
}
