/**
 * Small geometry helpers for the index build (local equirectangular approximations are enough at
 * street scale).
 */
const R = 6371008.8;
const RAD = Math.PI / 180;

export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Nearest point on a polyline ([lon, lat, lon, lat, …]) to (lat, lon): [lat, lon, meters]. */
export function nearestOnLine(coords: Float64Array | number[], lat: number, lon: number): [number, number, number] {
  const kx = Math.cos(lat * RAD);
  let best: [number, number, number] = [NaN, NaN, Infinity];
  for (let i = 0; i + 3 < coords.length || (i === 0 && coords.length === 2); i += 2) {
    const ax = coords[i]!, ay = coords[i + 1]!;
    const bx = coords.length === 2 ? ax : coords[i + 2]!, by = coords.length === 2 ? ay : coords[i + 3]!;
    const dx = (bx - ax) * kx, dy = by - ay;
    const px = (lon - ax) * kx, py = lat - ay;
    const len2 = dx * dx + dy * dy;
    let t = len2 > 0 ? (px * dx + py * dy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const qx = ax + (bx - ax) * t, qy = ay + (by - ay) * t;
    const d = distanceMeters(lat, lon, qy, qx);
    if (d < best[2]) best = [qy, qx, d];
    if (coords.length === 2) break;
  }
  return best;
}

/** Area-weighted centroid of a closed ring ([lon, lat, …]); falls back to the vertex mean. */
export function ringCentroid(coords: number[]): [number, number] {
  let a = 0, cx = 0, cy = 0;
  const n = coords.length / 2;
  for (let i = 0; i < n; i++) {
    const x0 = coords[2 * i]!, y0 = coords[2 * i + 1]!;
    const j = (i + 1) % n;
    const x1 = coords[2 * j]!, y1 = coords[2 * j + 1]!;
    const f = x0 * y1 - x1 * y0;
    a += f; cx += (x0 + x1) * f; cy += (y0 + y1) * f;
  }
  if (Math.abs(a) < 1e-14) return meanPoint(coords);
  return [cy / (3 * a), cx / (3 * a)];
}

export function ringArea(coords: number[]): number {
  let a = 0;
  const n = coords.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    a += coords[2 * i]! * coords[2 * j + 1]! - coords[2 * j]! * coords[2 * i + 1]!;
  }
  return Math.abs(a / 2);
}

/** Mean of the vertices: [lat, lon]. */
export function meanPoint(coords: number[]): [number, number] {
  let x = 0, y = 0;
  const n = coords.length / 2;
  for (let i = 0; i < n; i++) { x += coords[2 * i]!; y += coords[2 * i + 1]!; }
  return [y / n, x / n];
}

/** Point in polygon (even-odd over all rings, [lon, lat, …] each). */
export function pointInRings(rings: Float64Array[], lat: number, lon: number): boolean {
  let inside = false;
  for (const r of rings) {
    const n = r.length / 2;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const xi = r[2 * i]!, yi = r[2 * i + 1]!, xj = r[2 * j]!, yj = r[2 * j + 1]!;
      if ((yi > lat) !== (yj > lat) && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** A uniform grid over points, for nearest-neighbour queries at build time. */
export class PointGrid<T> {
  private readonly cells = new Map<number, { lat: number; lon: number; v: T }[]>();
  private readonly size: number;
  constructor(cellDegrees: number) { this.size = cellDegrees; }
  private key(ix: number, iy: number): number { return (ix + 4000) * 8000 + (iy + 4000); }
  add(lat: number, lon: number, v: T): void {
    const k = this.key(Math.floor(lon / this.size), Math.floor(lat / this.size));
    let c = this.cells.get(k);
    if (!c) { c = []; this.cells.set(k, c); }
    c.push({ lat, lon, v });
  }
  /** Nearest item within `rings` cells around, optionally filtered; [item, meters] or undefined. */
  nearest(lat: number, lon: number, rings: number, accept?: (v: T) => boolean): [T, number] | undefined {
    const ix = Math.floor(lon / this.size), iy = Math.floor(lat / this.size);
    let best: [T, number] | undefined;
    for (let r = 0; r <= rings; r++) {
      for (let dx = -r; dx <= r; dx++) {
        for (let dy = -r; dy <= r; dy++) {
          if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
          const c = this.cells.get(this.key(ix + dx, iy + dy));
          if (!c) continue;
          for (const p of c) {
            if (accept && !accept(p.v)) continue;
            const d = distanceMeters(lat, lon, p.lat, p.lon);
            if (!best || d < best[1]) best = [p.v, d];
          }
        }
      }
      // items in ring r+1 are at least r cells away
      if (best && best[1] < r * this.size * 111_000 * Math.cos((lat * Math.PI) / 180)) break;
    }
    return best;
  }
}
