/**
 * The node lists of the ways that relations need (members of boundaries and of address
 * multipolygons), kept between the way pass and the relation pass: sorted way ids, an offsets
 * array, and all refs back to back, three typed arrays on SharedArrayBuffers. No per-way object.
 */
import { indexOfId, sharedFloat64 } from './sorted-ids.ts';

export interface WayRefsBuffers {
  ids: Float64Array;
  /** refs of way i are refs[offsets[i] .. offsets[i+1]) */
  offsets: Float64Array;
  refs: Float64Array;
}

/** Per-block output of the way pass: parallel arrays, in block order. */
export interface WayRefsPart {
  ids: Float64Array;
  offsets: Float64Array;
  refs: Float64Array;
}

/** Gathers the parts in file order and lays them out sorted by way id. */
export class WayRefsCollector {
  private parts: WayRefsPart[] = [];
  private ways = 0;
  private refCount = 0;

  add(p: WayRefsPart): void {
    if (p.ids.length === 0) return;
    this.parts.push(p);
    this.ways += p.ids.length;
    this.refCount += p.refs.length;
  }

  finish(): WayRefsBuffers {
    const n = this.ways;
    // flat (id, part, index) order; sorted by id (usually already is: files are sorted)
    const srcPart = new Int32Array(n), srcIdx = new Int32Array(n), ids = new Float64Array(n);
    let k = 0;
    this.parts.forEach((p, pi) => { for (let i = 0; i < p.ids.length; i++) { ids[k] = p.ids[i]!; srcPart[k] = pi; srcIdx[k] = i; k++; } });
    let sorted = true;
    for (let i = 1; i < n; i++) if (ids[i - 1]! >= ids[i]!) { sorted = false; break; }
    const order = new Int32Array(n).map((_, i) => i);
    if (!sorted) order.sort((a, b) => ids[a]! - ids[b]!);
    const out: WayRefsBuffers = { ids: sharedFloat64(n), offsets: sharedFloat64(n + 1), refs: sharedFloat64(this.refCount) };
    let r = 0, w = 0;
    for (let j = 0; j < n; j++) {
      const o = order[j]!;
      if (w > 0 && out.ids[w - 1] === ids[o]) continue; // a way listed twice: keep the first
      const p = this.parts[srcPart[o]!]!, i = srcIdx[o]!;
      out.ids[w] = ids[o]!;
      out.offsets[w] = r;
      for (let q = p.offsets[i]!; q < p.offsets[i + 1]!; q++) out.refs[r++] = p.refs[q]!;
      w++;
    }
    out.offsets[w] = r;
    this.parts = [];
    return { ids: out.ids.subarray(0, w), offsets: out.offsets.subarray(0, w + 1), refs: out.refs.subarray(0, r) };
  }
}

export class WayRefs {
  private readonly b: WayRefsBuffers;
  constructor(b: WayRefsBuffers) { this.b = b; }

  /** The way's node ids, or undefined when the way was not kept (or is not in the file). */
  get(id: number): number[] | undefined {
    const i = indexOfId(this.b.ids, id);
    if (i < 0) return undefined;
    return Array.from(this.b.refs.subarray(this.b.offsets[i]!, this.b.offsets[i + 1]!));
  }
}
