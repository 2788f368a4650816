/**
 * The report's map: country outlines from Natural Earth (the `world-atlas` package's TopoJSON,
 * turned into GeoJSON by `topojson-client`) and the grid of answered points, projected at render
 * time to one inline SVG. The view is cropped to the answered points (with a margin), the
 * projection is equirectangular with the middle latitude's aspect; outlines come from the atlas
 * whose detail suits the view (110m, 50m, 10m), are clamped to just outside the view, rounded to
 * 0.1 px, with points closer than a pixel dropped, so the SVG stays tens of KiB. The cells drawn
 * are those of the finest grid that is left and is at least 3 px a cell in the view.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { Topology, GeometryCollection } from 'topojson-specification';
import { GRID_LEVELS } from './aggregate.ts';
import { esc, fmt } from './html.ts';

const require = createRequire(import.meta.url);
const atlasCache = new Map<string, Array<{ name: string; rings: number[][][] }>>();

/** Country outlines as rings of [lon, lat], from the coarse (110m) or medium (50m) atlas. */
function countries(scale: '110m' | '50m' | '10m'): Array<{ name: string; rings: number[][][] }> {
  const cached = atlasCache.get(scale);
  if (cached) return cached;
  const topo = JSON.parse(readFileSync(require.resolve(`world-atlas/countries-${scale}.json`), 'utf8')) as Topology;
  const fc = feature(topo, topo.objects.countries as GeometryCollection<{ name: string }>);
  const out: Array<{ name: string; rings: number[][][] }> = [];
  for (const f of fc.features) {
    const g = f.geometry;
    if (!g) continue;
    const rings = g.type === 'Polygon' ? g.coordinates : g.type === 'MultiPolygon' ? g.coordinates.flat() : [];
    out.push({ name: f.properties?.name ?? '', rings: rings as number[][][] });
  }
  atlasCache.set(scale, out);
  return out;
}

interface View {
  west: number;
  east: number;
  south: number;
  north: number;
  width: number;
  height: number;
  kx: number;
  ky: number;
}

const WIDTH = 960;
const MAX_HEIGHT = 560;

type Cell = [col: number, row: number, count: number];

function cellsOf(grid: Record<string, number>): Cell[] {
  return Object.entries(grid).map(([k, c]) => {
    const [col, row] = k.split(',').map(Number);
    return [col!, row!, c];
  });
}

function viewOf(cells: Cell[], deg: number): View {
  let west = 180, east = -180, south = 90, north = -90;
  for (const [col, row] of cells) {
    const lon = col * deg - 180;
    const lat = 90 - row * deg;
    west = Math.min(west, lon);
    east = Math.max(east, lon + deg);
    north = Math.max(north, lat);
    south = Math.min(south, lat - deg);
  }
  // A margin, a minimum extent (a job in one town still shows its surroundings), and the whole
  // inhabited world when the points span most of it.
  const padLon = Math.max(0.4, (east - west) * 0.08);
  const padLat = Math.max(0.3, (north - south) * 0.08);
  west -= padLon; east += padLon; south -= padLat; north += padLat;
  const minLon = 3, minLat = 2;
  if (east - west < minLon) { const c = (east + west) / 2; west = c - minLon / 2; east = c + minLon / 2; }
  if (north - south < minLat) { const c = (north + south) / 2; south = c - minLat / 2; north = c + minLat / 2; }
  if (east - west > 200 || cells.length === 0) { west = -180; east = 180; south = -58; north = 84; }
  west = Math.max(-180, west); east = Math.min(180, east);
  south = Math.max(-90, south); north = Math.min(90, north);
  const midLat = ((north + south) / 2) * (Math.PI / 180);
  const aspect = Math.max(0.3, Math.cos(midLat));
  // Widen the narrower side so the map fills a WIDTH × MAX_HEIGHT frame, not a tall strip.
  let spanX = (east - west) * aspect;
  let spanY = north - south;
  if (spanX / spanY < WIDTH / MAX_HEIGHT) {
    const grow = ((spanY * WIDTH) / MAX_HEIGHT - spanX) / aspect / 2;
    west = Math.max(-180, west - grow); east = Math.min(180, east + grow);
  } else {
    const grow = ((spanX * MAX_HEIGHT) / WIDTH - spanY) / 2;
    south = Math.max(-90, south - grow); north = Math.min(90, north + grow);
  }
  spanX = (east - west) * aspect;
  spanY = north - south;
  const scale = Math.min(WIDTH / spanX, MAX_HEIGHT / spanY);
  const width = Math.round(spanX * scale);
  const height = Math.round(spanY * scale);
  return { west, east, south, north, width, height, kx: scale * aspect, ky: scale };
}

const r1 = (v: number) => Math.round(v * 10) / 10;

/**
 * A ring's longitudes made continuous: a ring that crosses the antimeridian (Russia, Fiji) jumps
 * from 180 to -180; unwrapped, it runs on past 180 instead of drawing a line across the map.
 */
function unwrap(ring: number[][]): { ring: number[][]; crosses: boolean } {
  let shift = 0, prev = NaN, crosses = false;
  const out: number[][] = [];
  for (const [lon, lat] of ring) {
    if (!Number.isNaN(prev) && Math.abs(lon! + shift - prev) > 180) shift += lon! + shift < prev ? 360 : -360;
    const l = lon! + shift;
    if (l > 180 || l < -180) crosses = true;
    out.push([l, lat!]);
    prev = l;
  }
  return { ring: out, crosses };
}

/** A ring as SVG path data, drawn once more a world to the west when it runs past 180°. */
function ringPaths(ring: number[][], v: View): string {
  const u = unwrap(ring);
  if (!u.crosses) return intersects(ring, v) ? ringPath(ring, v) : '';
  const east = u.ring.some(([lon]) => lon! > 180);
  const copy = u.ring.map(([lon, lat]) => [lon! + (east ? -360 : 360), lat!]);
  return [u.ring, copy].filter((r) => intersects(r, v)).map((r) => ringPath(r, v)).join('');
}

/** Outside the view, points are clamped to a frame just beyond it: the fill inside is the same. */
const FRAME = 10;

function ringPath(ring: number[][], v: View): string {
  let d = '';
  let px = NaN, py = NaN, n = 0;
  for (const [lon, lat] of ring) {
    const x = r1(Math.min(v.width + FRAME, Math.max(-FRAME, (lon! - v.west) * v.kx)));
    const y = r1(Math.min(v.height + FRAME, Math.max(-FRAME, (v.north - lat!) * v.ky)));
    if (n > 0 && Math.abs(x - px) < 1 && Math.abs(y - py) < 1) continue;
    d += (n === 0 ? 'M' : 'L') + x + ' ' + y;
    px = x; py = y; n++;
  }
  return n >= 3 ? d + 'Z' : '';
}

function intersects(ring: number[][], v: View): boolean {
  let w = 180, e = -180, s = 90, n = -90;
  for (const [lon, lat] of ring) {
    if (lon! < w) w = lon!; if (lon! > e) e = lon!;
    if (lat! < s) s = lat!; if (lat! > n) n = lat!;
  }
  return e >= v.west && w <= v.east && n >= v.south && s <= v.north;
}

/** Colour steps for cells, by count on a log scale (light to dark). */
const STEPS = ['#fdba74', '#fb923c', '#ea580c', '#c2410c', '#7c2d12'];

/** The map of answered points as one <svg>, or a note when there are none. */
export function renderMap(grids: ReadonlyArray<Record<string, number> | null>): string {
  // The view: from the finest grid left (the most exact extent).
  let finest = 0;
  grids.forEach((g, l) => { if (g) finest = l; });
  const extentCells = cellsOf(grids[finest]!);
  if (extentCells.length === 0) return '<p class="note">No answered points to draw.</p>';
  const v = viewOf(extentCells, GRID_LEVELS[finest]!.degrees);
  // The cells: the finest grid left whose cells are at least 3 px wide here.
  let level = 0;
  grids.forEach((g, l) => { if (g && GRID_LEVELS[l]!.degrees * v.kx >= 3) level = l; });
  const deg = GRID_LEVELS[level]!.degrees;
  const cells = level === finest ? extentCells : cellsOf(grids[level]!);
  const span = v.east - v.west;
  const atlas = countries(span > 60 ? '110m' : span > 12 ? '50m' : '10m');
  const paths: string[] = [];
  for (const c of atlas) {
    if (c.name === 'Antarctica') continue; // no addresses; its ring runs along the map's edge
    let d = '';
    for (const ring of c.rings) d += ringPaths(ring, v);
    if (d) paths.push(`<path d="${d}"><title>${esc(c.name)}</title></path>`);
  }
  const max = Math.max(...cells.map((c) => c[2]));
  const step = (count: number) => (max <= 1 ? 2 : Math.min(STEPS.length - 1, Math.floor((Math.log(count) / Math.log(max)) * (STEPS.length - 1) + 1e-9)));
  // A cell is drawn at least 4 px wide (centred on its place), so that a world view still shows it.
  const cw = Math.max(4, deg * v.kx);
  const ch = Math.max(4, deg * v.ky);
  // One path per colour step, each cell a small closed square: ~25 bytes a cell, so even a job
  // that covers the whole grid (64,800 cells) draws in under 2 MB.
  const byStep: string[] = STEPS.map(() => '');
  const counts: number[] = STEPS.map(() => 0);
  for (const [col, row, count] of cells) {
    const lon = col * deg - 180;
    const lat = 90 - row * deg;
    const x = r1((lon + deg / 2 - v.west) * v.kx - cw / 2);
    const y = r1((v.north - lat + deg / 2) * v.ky - ch / 2);
    const k = step(count);
    byStep[k] += `M${x} ${y}h${r1(cw)}v${r1(ch)}h${-r1(cw)}z`;
    counts[k]! += count;
  }
  const rects = byStep.map((d, k) => (d ? `<path fill="${STEPS[k]}" d="${d}"><title>${fmt(counts[k]!)} answered points in these cells</title></path>` : ''));
  const legend = STEPS.map((c, i) => {
    const lo = max <= 1 ? 1 : Math.ceil(Math.exp((i / (STEPS.length - 1)) * Math.log(max)));
    return `<span class="key"><i style="background:${c}"></i>${i === 0 ? '1' : `≥ ${fmt(lo)}`}</span>`;
  }).filter((_, i) => max > 1 || i === 2);
  return `<svg class="map" id="map" viewBox="0 0 ${v.width} ${v.height}" width="${v.width}" height="${v.height}" role="img" aria-label="answered points per ${deg}° cell">`
    + `<rect class="sea" width="${v.width}" height="${v.height}"/>`
    + `<g class="land">${paths.join('')}</g><g class="cells">${rects.join('')}</g></svg>`
    + `<div class="legend">Answered points per ${deg}° × ${deg}° cell (${cellSize(deg, (v.north + v.south) / 2)}): ${legend.join(' ')}</div>`;
}

/** A cell's size on the ground, roughly, for the legend. */
function cellSize(deg: number, lat: number): string {
  const ns = deg * 111.2;
  const ew = ns * Math.cos((lat * Math.PI) / 180);
  const km = (x: number) => (x >= 10 ? Math.round(x).toString() : x.toFixed(1));
  return `about ${km(ew)} × ${km(ns)} km here`;
}
