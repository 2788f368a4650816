/**
 * Locations of the nodes the build needs, and only those: the sorted ids (a Float64Array) and,
 * at the same index, longitude and latitude in units of 1e-7 degree (Int32Arrays; ±180° fits).
 * 16 bytes per needed node, all three arrays on SharedArrayBuffers: the node pass's worker threads
 * write the coordinates of the nodes of their blobs straight into them, the way pass's workers read
 * them. A node that is needed but absent from the file keeps the MISSING marker.
 *
 * This is the "sorted typed arrays" store (pbf2json's approach). It needs no disk, holds no JS
 * object per node, and is sized by what the address, street and boundary ways reference, not by
 * the file.
 */
import { indexOfId, lowerBound } from './sorted-ids.ts';

/** Marker of a needed node the file does not have (no real coordinate is -2^31 × 1e-7°). */
export const MISSING = -0x80000000;
/** One coordinate unit: 100 nanodegrees, the format's default granularity. */
const UNIT_NANO = 100;
/** Degrees per unit, computed as the old reader computed it (1e-9 × granularity). */
const DEG_PER_UNIT = 1e-9 * UNIT_NANO;

export interface NodeLocationBuffers {
  ids: Float64Array;
  lon: Int32Array;
  lat: Int32Array;
}

export function allocateNodeLocations(ids: Float64Array): NodeLocationBuffers {
  const n = ids.length;
  const lon = new Int32Array(new SharedArrayBuffer(Math.max(1, n) * 4), 0, n).fill(MISSING);
  const lat = new Int32Array(new SharedArrayBuffer(Math.max(1, n) * 4), 0, n).fill(MISSING);
  return { ids, lon, lat };
}

/** Degrees → store units (used when the block's granularity or offsets are not the defaults). */
export function nanoToUnits(nano: number): number {
  return Math.round(nano / UNIT_NANO);
}

export function unitsToDeg(u: number): number {
  return DEG_PER_UNIT * u;
}

/** One id in this many is sampled into the cache-resident index of `indexOf`. */
const PAGE = 128;

export class NodeLocations {
  readonly ids: Float64Array;
  readonly lon: Int32Array;
  readonly lat: Int32Array;
  /**
   * ids[0], ids[PAGE], ids[2·PAGE], …: small enough to stay in the CPU cache (18M nodes → 1.1 MB),
   * so a lookup costs a search there plus one within a page (1 KiB), instead of ~24 probes spread
   * over the whole id array, each a cache miss.
   */
  private readonly pages: Float64Array;
  /** Cursor of the merge walk in `seek` (blocks list their nodes in ascending id order). */
  private cursor = 0;

  constructor(b: NodeLocationBuffers) {
    this.ids = b.ids;
    this.lon = b.lon;
    this.lat = b.lat;
    this.pages = new Float64Array(Math.ceil(b.ids.length / PAGE));
    for (let p = 0; p < this.pages.length; p++) this.pages[p] = b.ids[p * PAGE]!;
  }

  get size(): number { return this.ids.length; }

  /**
   * Index of `id` or -1, for ids given in ascending order within a block: walks forward from the
   * last hit (O(1) per node on a sorted file) and falls back to a binary search when ids go back
   * or jump far.
   */
  seek(id: number): number {
    const ids = this.ids;
    let c = this.cursor;
    if (c >= ids.length || ids[c]! > id || (c + 64 < ids.length && ids[c + 64]! < id)) c = lowerBound(ids, id);
    else while (c < ids.length && ids[c]! < id) c++;
    this.cursor = c;
    return c < ids.length && ids[c] === id ? c : -1;
  }

  indexOf(id: number): number {
    const pages = this.pages;
    // last page whose first id is ≤ id
    let lo = 0, hi = pages.length - 1;
    if (hi < 0 || id < pages[0]!) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (pages[mid]! <= id) lo = mid; else hi = mid - 1;
    }
    const start = lo * PAGE;
    return indexOfId(this.ids, id, start, Math.min(start + PAGE, this.ids.length) - 1);
  }

  /**
   * Appends the [lon, lat] in degrees of each of `refs` that the store has to `out`; returns how
   * many refs were missing.
   */
  coordsOf(refs: readonly number[], out: number[]): number {
    let missing = 0;
    for (let i = 0; i < refs.length; i++) {
      const k = this.indexOf(refs[i]!);
      if (k < 0 || this.lat[k] === MISSING) { missing++; continue; }
      out.push(unitsToDeg(this.lon[k]!), unitsToDeg(this.lat[k]!));
    }
    return missing;
  }
}
