/**
 * Street parts: one (country, street, city) group in several places is several street documents
 * (build/street-parts, single linkage at LINK_METERS). The group's own lines (same folded name,
 * near its box) join its points through their cells. Reorders `order` so each part's points are
 * contiguous (stable inside a part) and returns the parts' offsets, their group and, with street
 * lines, their boxes.
 */
import { COORD_SCALE } from '../../../engine/index/format.ts';
import { growI32, growU32 } from '../growable.ts';
import type { LineStore } from '../line-store.ts';
import type { PointStore } from '../point-store.ts';
import type { BuildProgress } from '../progress.ts';
import type { StringKeys } from '../string-keys.ts';
import { CellLinker, LINK_METERS } from '../street-parts.ts';
import type { StreetGroups } from './street-groups.ts';

export interface StreetParts {
  /** count + 1 offsets into the reordered `order`. */
  start: Uint32Array;
  count: number;
  /** The group of each part; a group's parts are contiguous, from firstPart[g] to firstPart[g + 1]. */
  group: Uint32Array;
  firstPart: Uint32Array;
  /** minLat, minLon, maxLat, maxLon of each part (fixed point); empty when the build has no lines. */
  box: Int32Array;
}

/** `lines` must be finished (its R-tree built). */
export function splitStreets(P: PointStore, lines: LineStore, groups: StreetGroups, keys: StringKeys, pr: BuildProgress): StreetParts {
  const { order, start: groupStart, count: nGroups } = groups;
  pr.phase('street parts', nGroups);
  const withBox = lines.count > 0; // the boxes serve the line-only stage
  const start = growU32(nGroups + 1), group = growU32(nGroups), box = growI32(withBox ? nGroups * 4 : 16);
  const firstPart = new Uint32Array(nGroups + 1);
  start.push(0);
  const linker = new CellLinker();
  let labels = new Int32Array(1024), tmp = new Uint32Array(1024), partN = new Uint32Array(64);
  const lat = P.lat.a, lon = P.lon.a;
  const cellLat = (LINK_METERS / Math.SQRT2 / 110_574) * COORD_SCALE;
  const pushPart = (g: number, end: number, y0: number, x0: number, y1: number, x1: number) => {
    start.push(end); group.push(g);
    if (withBox) { box.push(y0); box.push(x0); box.push(y1); box.push(x1); }
  };
  for (let g = 0; g < nGroups; g++) {
    if ((g & 0x3fff) === 0) pr.tick(g);
    firstPart[g] = group.n;
    const s = groupStart[g]!, e = groupStart[g + 1]!, k = e - s;
    let y0 = 0x7fffffff, x0 = 0x7fffffff, y1 = -0x7fffffff, x1 = -0x7fffffff;
    for (let j = s; j < e; j++) {
      const i = order[j]!;
      const y = lat[i]!, x = lon[i]!;
      if (y < y0) y0 = y; if (y > y1) y1 = y; if (x < x0) x0 = x; if (x > x1) x1 = x;
    }
    const cosLat = Math.max(0.05, Math.cos(((y0 / COORD_SCALE) * Math.PI) / 180));
    const cellLon = cellLat / cosLat;
    // within one cell's width both ways, every point touches every other's cell or a neighbour
    if (y1 - y0 <= cellLat && x1 - x0 <= cellLon) { pushPart(g, e, y0, x0, y1, x1); continue; }
    const nameFold = keys.fold(P.street.a[order[s]!]!);
    const pad = LINK_METERS / 110_000;
    const near = lines.count === 0 ? [] : lines.search(x0 / COORD_SCALE - pad / cosLat, y0 / COORD_SCALE - pad, x1 / COORD_SCALE + pad / cosLat, y1 / COORD_SCALE + pad)
      .filter((l) => keys.fold(lines.name.a[l]!) === nameFold);
    const items = k + near.length;
    linker.reset(items, y0 / COORD_SCALE);
    for (let j = 0; j < k; j++) { const i = order[s + j]!; linker.add(j, lat[i]! / COORD_SCALE, lon[i]! / COORD_SCALE); }
    for (let m = 0; m < near.length; m++) {
      const c = lines.line(near[m]!);
      for (let p = 0; p < c.length; p += 2) linker.add(k + m, c[p + 1]!, c[p]!);
    }
    if (labels.length < items) labels = new Int32Array(items * 2);
    const nc = linker.components(labels);
    if (nc === 1) { pushPart(g, e, y0, x0, y1, x1); continue; }
    // counting sort of the group's points by part (stable), parts without points dropped
    if (partN.length < nc + 1) partN = new Uint32Array((nc + 1) * 2);
    partN.fill(0, 0, nc + 1);
    for (let j = 0; j < k; j++) partN[labels[j]! + 1]!++;
    for (let c = 0; c < nc; c++) partN[c + 1]! += partN[c]!;
    if (tmp.length < k) tmp = new Uint32Array(k * 2);
    for (let j = 0; j < k; j++) tmp[partN[labels[j]!]!++] = order[s + j]!;
    order.set(tmp.subarray(0, k), s);
    // partN[c] is now the end of part c
    let from = 0;
    for (let c = 0; c < nc; c++) {
      const to = partN[c]!;
      if (to === from) continue;
      let py0 = 0x7fffffff, px0 = 0x7fffffff, py1 = -0x7fffffff, px1 = -0x7fffffff;
      for (let j = s + from; j < s + to; j++) {
        const i = order[j]!;
        const y = lat[i]!, x = lon[i]!;
        if (y < py0) py0 = y; if (y > py1) py1 = y; if (x < px0) px0 = x; if (x > px1) px1 = x;
      }
      pushPart(g, s + to, py0, px0, py1, px1);
      from = to;
    }
  }
  firstPart[nGroups] = group.n;
  return { start: start.view() as Uint32Array, count: group.n, group: group.view() as Uint32Array, box: box.view() as Int32Array, firstPart };
}

/** Whether a line's box comes within `pad` degrees (latitude; widened for longitude) of a part of group g. */
export function lineMeetsParts(c: Float64Array, parts: StreetParts, g: number, pad: number): boolean {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let p = 0; p < c.length; p += 2) {
    const x = c[p]!, y = c[p + 1]!;
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  const padLon = pad / Math.max(0.05, Math.cos((y0 * Math.PI) / 180));
  for (let q = parts.firstPart[g]!; q < parts.firstPart[g + 1]!; q++) {
    const b = q * 4;
    const py0 = parts.box[b]! / COORD_SCALE - pad, px0 = parts.box[b + 1]! / COORD_SCALE - padLon;
    const py1 = parts.box[b + 2]! / COORD_SCALE + pad, px1 = parts.box[b + 3]! / COORD_SCALE + padLon;
    if (x1 >= px0 && x0 <= px1 && y1 >= py0 && y0 <= py1) return true;
  }
  return false;
}
