/**
 * Named street lines of a build: coordinates in one Float64 column, names interned, and a
 * Flatbush R-tree over the lines' boxes, so a street document finds its geometry by box, not by
 * scanning every line of the country.
 */
import Flatbush from 'flatbush';
import { growF64, growU32, growU8 } from './growable.ts';

export class LineStore {
  readonly name = growU32(1 << 10);
  readonly names = growU32(1 << 10);
  readonly start = growU32(1 << 10);
  readonly coords = growF64(1 << 14);
  /** 1 when a street document took the line. */
  used = growU8(1 << 10);
  private tree: Flatbush | undefined;

  constructor() {
    this.start.push(0);
  }

  get count(): number {
    return this.name.n;
  }

  add(nameId: number, namesId: number, coords: Float64Array): void {
    this.name.push(nameId);
    this.names.push(namesId);
    this.used.push(0);
    const at = this.coords.n;
    this.coords.reserve(at + coords.length);
    this.coords.a.set(coords, at);
    this.coords.n = at + coords.length;
    this.start.push(this.coords.n);
  }

  line(i: number): Float64Array {
    return this.coords.a.subarray(this.start.a[i]!, this.start.a[i + 1]!);
  }

  /** Builds the R-tree (after the last add). */
  finish(): void {
    if (this.count === 0) return;
    const t = new Flatbush(this.count);
    const c = this.coords.a;
    for (let i = 0; i < this.count; i++) {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let p = this.start.a[i]!; p < this.start.a[i + 1]!; p += 2) {
        const x = c[p]!, y = c[p + 1]!;
        if (x < x0) x0 = x; if (x > x1) x1 = x;
        if (y < y0) y0 = y; if (y > y1) y1 = y;
      }
      t.add(x0, y0, x1, y1);
    }
    t.finish();
    this.tree = t;
  }

  /** Lines whose box meets the given box (lon/lat degrees). */
  search(minLon: number, minLat: number, maxLon: number, maxLat: number): number[] {
    return this.tree ? this.tree.search(minLon, minLat, maxLon, maxLat) : [];
  }
}
