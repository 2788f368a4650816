/**
 * Splitting one (country, street, city) group into the separate places it lies in: two streets
 * of the same name in two towns of the same name are two documents, a long street is one.
 *
 * Exact single-linkage clustering at `LINK_METERS`, on a grid, in typed arrays: every item (an
 * address point, or a street line with all its vertices) adds its vertices; vertices are bucketed
 * into square cells of LINK_METERS/√2 (any two in one cell are within the linkage distance, so a
 * cell is one node of a union-find), and two cells up to two apart are joined when some pair of
 * their vertices is within LINK_METERS (the search stops at the first pair). The result depends
 * only on the distances, not on where the grid falls. A line is one item, so a street's own
 * geometry bridges a gap between its houses.
 */
import { growF64, growI32 } from './growable.ts';

/** Linkage distance: parts of one group closer than this are one street (docs/performance.md). */
export const LINK_METERS = 2000;

const M_PER_DEG_LAT = 110_574;
const M_PER_DEG_LON_EQ = 111_320;

/** Reusable linker: reset() per group, add items' vertices, then components(). */
export class CellLinker {
  private parent = new Int32Array(1 << 10);
  private n = 0;
  private readonly vx = growF64(1 << 10);
  private readonly vy = growF64(1 << 10);
  private readonly vItem = growI32(1 << 10);
  private vCell = new Int32Array(1 << 10);
  private sorted = new Int32Array(1 << 10);
  private readonly cellX = growI32(1 << 10);
  private readonly cellY = growI32(1 << 10);
  private cellStart = new Int32Array(1 << 10);
  private table = new Int32Array(1 << 11).fill(-1);
  private mask = (1 << 11) - 1;
  private kx = 1;
  private readonly link: number;
  private readonly cell: number;

  constructor(linkMeters = LINK_METERS) {
    this.link = linkMeters;
    this.cell = linkMeters / Math.SQRT2;
  }

  /** Starts a group of `items` items around latitude `lat0` (degrees). */
  reset(items: number, lat0: number): void {
    if (this.parent.length < items) this.parent = new Int32Array(Math.max(items, this.parent.length * 2));
    for (let i = 0; i < items; i++) this.parent[i] = i;
    this.n = items;
    this.vx.n = 0; this.vy.n = 0; this.vItem.n = 0;
    this.kx = M_PER_DEG_LON_EQ * Math.max(0.05, Math.cos((lat0 * Math.PI) / 180));
  }

  /** Item `item` has a vertex at (lat, lon) in degrees. */
  add(item: number, lat: number, lon: number): void {
    this.vx.push(lon * this.kx);
    this.vy.push(lat * M_PER_DEG_LAT);
    this.vItem.push(item);
  }

  /**
   * Writes each item's component (0, 1, … in order of each component's first item) into `out`;
   * returns the number of components.
   */
  components(out: Int32Array): number {
    const nv = this.vx.n, vx = this.vx.a, vy = this.vy.a, vItem = this.vItem.a;
    // cells: ids through an open-addressing table, vertices bucketed by cell (counting sort)
    if (this.table.length < nv * 2) { let t = this.table.length; while (t < nv * 2) t *= 2; this.table = new Int32Array(t); this.mask = t - 1; }
    this.table.fill(-1);
    if (this.vCell.length < nv) { this.vCell = new Int32Array(nv * 2); this.sorted = new Int32Array(nv * 2); }
    this.cellX.n = 0; this.cellY.n = 0;
    for (let v = 0; v < nv; v++) {
      const x = Math.floor(vx[v]! / this.cell), y = Math.floor(vy[v]! / this.cell);
      let c = this.find(x, y);
      if (c < 0) c = this.insert(x, y);
      this.vCell[v] = c;
    }
    const nc = this.cellX.n;
    if (this.cellStart.length < nc + 1) this.cellStart = new Int32Array((nc + 1) * 2);
    const cs = this.cellStart;
    cs.fill(0, 0, nc + 1);
    for (let v = 0; v < nv; v++) cs[this.vCell[v]! + 1]!++;
    for (let c = 0; c < nc; c++) cs[c + 1]! += cs[c]!;
    for (let v = 0; v < nv; v++) this.sorted[cs[this.vCell[v]!]!++] = v;
    for (let c = nc; c > 0; c--) cs[c] = cs[c - 1]!;
    cs[0] = 0;
    const sorted = this.sorted;
    // a cell is one node: its vertices are within the linkage distance of each other
    for (let c = 0; c < nc; c++) {
      const first = vItem[sorted[cs[c]!]!]!;
      for (let j = cs[c]! + 1; j < cs[c + 1]!; j++) this.union(first, vItem[sorted[j]!]!);
    }
    // cells up to two apart (half of the 5×5 neighbourhood): joined by any pair within reach
    const r2 = this.link * this.link;
    for (let c = 0; c < nc; c++) {
      const x = this.cellX.a[c]!, y = this.cellY.a[c]!;
      const a = vItem[sorted[cs[c]!]!]!;
      for (let dy = 0; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          if (dy === 0 && dx <= 0) continue;
          const o = this.find(x + dx, y + dy);
          if (o < 0) continue;
          const b = vItem[sorted[cs[o]!]!]!;
          if (this.root(a) === this.root(b)) continue;
          search: for (let i = cs[c]!; i < cs[c + 1]!; i++) {
            const p = sorted[i]!, px = vx[p]!, py = vy[p]!;
            for (let j = cs[o]!; j < cs[o + 1]!; j++) {
              const q = sorted[j]!, ddx = vx[q]! - px, ddy = vy[q]! - py;
              if (ddx * ddx + ddy * ddy <= r2) { this.union(a, b); break search; }
            }
          }
        }
      }
    }
    // union keeps the smaller index as root, so an item's root comes before it (or is itself)
    let count = 0;
    for (let i = 0; i < this.n; i++) {
      const r = this.root(i);
      out[i] = r === i ? count++ : out[r]!;
    }
    return count;
  }

  private root(i: number): number {
    const p = this.parent;
    while (p[i] !== i) { p[i] = p[p[i]!]!; i = p[i]!; }
    return i;
  }

  private union(a: number, b: number): void {
    const ra = this.root(a), rb = this.root(b);
    if (ra === rb) return;
    if (ra < rb) this.parent[rb] = ra; else this.parent[ra] = rb;
  }

  private hash(x: number, y: number): number {
    let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    return h & this.mask;
  }

  private find(x: number, y: number): number {
    for (let s = this.hash(x, y); ; s = (s + 1) & this.mask) {
      const c = this.table[s]!;
      if (c < 0) return -1;
      if (this.cellX.a[c] === x && this.cellY.a[c] === y) return c;
    }
  }

  private insert(x: number, y: number): number {
    const c = this.cellX.push(x);
    this.cellY.push(y);
    let s = this.hash(x, y);
    while (this.table[s]! >= 0) s = (s + 1) & this.mask;
    this.table[s] = c;
    return c;
  }
}
