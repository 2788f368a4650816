/**
 * Street geometry of a street document: the named lines near its points, the display point on
 * them (else the point nearest the centroid) and each address's navigation point on the nearest
 * of them. A document's points are given as `seg`: keys whose value modulo 2^32 is the point.
 */
import { COORD_SCALE } from '../../../engine/index/format.ts';
import { distanceMeters, nearestOnLine } from '../../geo.ts';
import type { LineStore } from '../line-store.ts';
import type { PointStore } from '../point-store.ts';
import type { StringKeys } from '../string-keys.ts';

/** A line belongs to a street document when it passes this close to one of its points. */
export const LINE_NEAR_METERS = 1500;
/** A street line farther than this from an address is not "its" street. */
export const NAV_MAX_METERS = 400;

const pointOf = (seg: Float64Array, j: number) => seg[j]! % 4294967296;

/**
 * Lines of the same folded name as `nameId` that pass within LINE_NEAR_METERS of one of the k
 * points (every k/8-th point tried), in R-tree order; they are marked used.
 */
export function nearLines(P: PointStore, lines: LineStore, keys: StringKeys, seg: Float64Array, k: number, nameId: number, cLat: number): number[] {
  const near: number[] = [];
  const nameFold = keys.fold(nameId);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let j = 0; j < k; j++) {
    const i = pointOf(seg, j);
    const x = P.lon.a[i]! / COORD_SCALE, y = P.lat.a[i]! / COORD_SCALE;
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  const dy = LINE_NEAR_METERS / 111_000, dx = dy / Math.max(0.05, Math.cos((cLat * Math.PI) / 180));
  for (const l of lines.search(x0 - dx, y0 - dy, x1 + dx, y1 + dy)) {
    if (keys.fold(lines.name.a[l]!) !== nameFold) continue;
    const coords = lines.line(l);
    let ok = false;
    for (let j = 0; j < k && !ok; j += Math.max(1, Math.floor(k / 8))) {
      const i = pointOf(seg, j);
      if (nearestOnLine(coords, P.lat.a[i]! / COORD_SCALE, P.lon.a[i]! / COORD_SCALE)[2] < LINE_NEAR_METERS) ok = true;
    }
    if (ok) { near.push(l); lines.used.a[l] = 1; }
  }
  return near;
}

/**
 * The display point (degrees): the point of the near lines nearest the centroid, which is then
 * also the navigation point (`onLine`); without lines, the address point nearest the centroid.
 */
export function displayPoint(P: PointStore, lines: LineStore, near: number[], seg: Float64Array, k: number, cLat: number, cLon: number): { lat: number; lon: number; onLine: boolean } {
  let dLat = NaN, dLon = NaN, navOk = false;
  if (near.length) {
    let best = Infinity;
    for (const l of near) {
      const r = nearestOnLine(lines.line(l), cLat, cLon);
      if (r[2] < best) { best = r[2]; dLat = r[0]; dLon = r[1]; }
    }
    navOk = Number.isFinite(best);
  }
  if (!navOk) {
    let bd = Infinity;
    for (let j = 0; j < k; j++) {
      const i = pointOf(seg, j);
      const la = P.lat.a[i]! / COORD_SCALE, lo = P.lon.a[i]! / COORD_SCALE;
      const dd = distanceMeters(cLat, cLon, la, lo);
      if (dd < bd) { bd = dd; dLat = la; dLon = lo; }
    }
  }
  return { lat: dLat, lon: dLon, onLine: navOk };
}

/** An address's navigation point (degrees) on the nearest near line, or undefined when none is within NAV_MAX_METERS. */
export function navigationPoint(lines: LineStore, near: number[], lat: number, lon: number): [number, number] | undefined {
  if (!near.length) return undefined;
  let best: [number, number, number] = [NaN, NaN, Infinity];
  for (const l of near) {
    const r = nearestOnLine(lines.line(l), lat, lon);
    if (r[2] < best[2]) best = r;
  }
  return best[2] <= NAV_MAX_METERS ? [best[0], best[1]] : undefined;
}
