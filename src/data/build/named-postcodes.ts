/**
 * The postcode a place document carries: the nearest postcode entry of the same country and the
 * same folded place name among the entries in the 0.1° grid cell of the place and the eight cells
 * around it; of equally near entries, the one in the earlier cell (the place's own, then by column
 * and row), then the earlier entry. Only the entries whose (country, folded name) some place has
 * are kept, so a place compares its namesakes only, not every postcode nearby.
 */
import { distanceMeters } from '../geo.ts';
import type { PostcodeEntry } from '../source-types.ts';

const CELL = 0.1;

export class NamedPostcodes {
  private readonly postcodes: PostcodeEntry[];
  /** country → folded place name → the entries' positions, ascending. */
  private readonly byName = new Map<string, Map<string, number[]>>();

  /** `folds[i]` is foldText of `postcodes[i].place`; `names` the (country, folded name) pairs wanted. */
  constructor(postcodes: PostcodeEntry[], folds: string[], names: Iterable<[string, string]>) {
    this.postcodes = postcodes;
    for (const [country, fold] of names) {
      let m = this.byName.get(country);
      if (!m) { m = new Map(); this.byName.set(country, m); }
      m.set(fold, []);
    }
    for (let i = 0; i < postcodes.length; i++) this.byName.get(postcodes[i]!.country)?.get(folds[i]!)?.push(i);
  }

  /** [entry, meters] or undefined when no namesake is in the nine cells. */
  nearest(country: string, fold: string, lat: number, lon: number): [PostcodeEntry, number] | undefined {
    const at = this.byName.get(country)?.get(fold);
    if (!at?.length) return undefined;
    const ix = Math.floor(lon / CELL), iy = Math.floor(lat / CELL);
    let best = -1, bestD = 0, bestCell = 0;
    for (const i of at) {
      const e = this.postcodes[i]!;
      const dx = Math.floor(e.lon / CELL) - ix, dy = Math.floor(e.lat / CELL) - iy;
      if (dx < -1 || dx > 1 || dy < -1 || dy > 1) continue;
      const cell = dx === 0 && dy === 0 ? 0 : 1 + (dx + 1) * 3 + (dy + 1);
      const d = distanceMeters(lat, lon, e.lat, e.lon);
      if (best < 0 || d < bestD || (d === bestD && cell < bestCell)) { best = i; bestD = d; bestCell = cell; }
    }
    return best < 0 ? undefined : [this.postcodes[best]!, bestD];
  }
}
