/**
 * Splitting one (country, street, city) group into the separate places it lies in: two streets
 * of the same name in two towns of the same name are two documents, a long street is one.
 *
 * Single-linkage clustering on a grid, in typed arrays: every item (an address point, or a street
 * line with all its vertices) marks the grid cells it touches; items sharing a cell, and cells
 * that touch (8-neighbourhood), are joined with a union-find. With cells of `LINK_CELL_METERS`,
 * two points closer than one cell are always joined and two points farther apart than
 * 2√2 cells (2.8 km) never are directly: a linkage distance between 1 and 2.8 km, in O(items).
 * A line is one item, so a street's own geometry bridges a gap between its houses.
 */
import { growI32 } from './growable.ts';

/** Cell size of the linkage grid (see the module comment and docs/performance.md). */
export const LINK_CELL_METERS = 1000;

const M_PER_DEG_LAT = 110_574;
const M_PER_DEG_LON_EQ = 111_320;
const NEIGHBOURS = [1, -1, 1, 0, 1, 1, 0, 1];

/** Reusable linker: reset() per group, add items' coordinates, then components(). */
export class CellLinker {
  private parent = new Int32Array(1 << 10);
  private n = 0;
  private readonly cellX = growI32(1 << 10);
  private readonly cellY = growI32(1 << 10);
  private readonly cellItem = growI32(1 << 10);
  private table = new Int32Array(1 << 11).fill(-1);
  private mask = (1 << 11) - 1;
  private kx = 1;
  private readonly ky: number;
  private readonly cell: number;

  constructor(cellMeters = LINK_CELL_METERS) {
    this.cell = cellMeters;
    this.ky = M_PER_DEG_LAT / cellMeters;
  }

  /** Starts a group of `items` items around latitude `lat0` (degrees). */
  reset(items: number, lat0: number): void {
    if (this.parent.length < items) this.parent = new Int32Array(Math.max(items, this.parent.length * 2));
    for (let i = 0; i < items; i++) this.parent[i] = i;
    this.n = items;
    this.cellX.n = 0; this.cellY.n = 0; this.cellItem.n = 0;
    if (this.table.length > 1 << 11 && this.table.length > items * 8) { this.table = new Int32Array(1 << 11); this.mask = (1 << 11) - 1; }
    this.table.fill(-1);
    this.kx = (M_PER_DEG_LON_EQ * Math.max(0.05, Math.cos((lat0 * Math.PI) / 180))) / this.cell;
  }

  /** Item `item` touches the point (lat, lon) in degrees. */
  add(item: number, lat: number, lon: number): void {
    const x = Math.floor(lon * this.kx), y = Math.floor(lat * this.ky);
    const c = this.find(x, y);
    if (c >= 0) { this.union(item, this.cellItem.a[c]!); return; }
    this.insert(x, y, item);
  }

  /**
   * Joins touching cells, then writes each item's component (0, 1, … in order of each
   * component's first item) into `out`; returns the number of components.
   */
  components(out: Int32Array): number {
    const nc = this.cellX.n;
    for (let c = 0; c < nc; c++) {
      const x = this.cellX.a[c]!, y = this.cellY.a[c]!;
      for (let k = 0; k < 8; k += 2) {
        const o = this.find(x + NEIGHBOURS[k]!, y + NEIGHBOURS[k + 1]!);
        if (o >= 0) this.union(this.cellItem.a[c]!, this.cellItem.a[o]!);
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

  private insert(x: number, y: number, item: number): void {
    const c = this.cellX.push(x);
    this.cellY.push(y); this.cellItem.push(item);
    if ((c + 1) * 2 > this.table.length) { this.grow(); return; }
    let s = this.hash(x, y);
    while (this.table[s]! >= 0) s = (s + 1) & this.mask;
    this.table[s] = c;
  }

  private grow(): void {
    this.table = new Int32Array(this.table.length * 2).fill(-1);
    this.mask = this.table.length - 1;
    for (let c = 0; c < this.cellX.n; c++) {
      let s = this.hash(this.cellX.a[c]!, this.cellY.a[c]!);
      while (this.table[s]! >= 0) s = (s + 1) & this.mask;
      this.table[s] = c;
    }
  }
}
