/**
 * `node scripts/gen-osm-tiled.ts [--nodes 50000000 | --tiles N] [--source FILE.osm.pbf] [--level 6] --out FILE`
 *
 * Makes a national-size OSM PBF for the index-scale benchmark out of the real Liechtenstein extract
 * in ../shared/data: tiled copies with moved ids and coordinates (scripts/osm-tiler.ts), written by
 * the project's own encoder, sorted by type then id like a Geofabrik extract. The output is never
 * committed. `osmium fileinfo -e FILE` (Debian's osmium-tool) reads it back as a valid, sorted PBF.
 */
import { parseArgs } from 'node:util';
import { sharedDataPath } from '../src/config/shared-data.ts';
import { loadTileSource, writeTiledPbf } from './osm-tiler.ts';

export const DEFAULT_SOURCE = sharedDataPath('osm-liechtenstein-2024', 'liechtenstein-2024-03-04.osm.pbf');

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    nodes: { type: 'string' },
    tiles: { type: 'string' },
    source: { type: 'string' },
    level: { type: 'string' },
  },
});
if (!values.out) {
  console.error('usage: node scripts/gen-osm-tiled.ts [--nodes 50000000 | --tiles N] [--source FILE.osm.pbf] [--level 6] --out FILE');
  process.exit(2);
}
const source = values.source ?? DEFAULT_SOURCE;
const t0 = performance.now();
const src = await loadTileSource(source);
const tiles = values.tiles ? Number(values.tiles) : Math.ceil(Number(values.nodes ?? 50_000_000) / src.nodeCount);
if (!Number.isInteger(tiles) || tiles < 1) {
  console.error(`bad --tiles/--nodes: ${values.tiles ?? values.nodes}`);
  process.exit(2);
}
let last = 0;
const r = await writeTiledPbf(src, values.out, {
  tiles,
  level: values.level !== undefined ? Number(values.level) : 6,
  onProgress: (done, total) => {
    const now = performance.now();
    if (process.stderr.isTTY && now - last > 500) { last = now; process.stderr.write(`\r${Math.round((100 * done) / total)} %`); }
  },
});
if (process.stderr.isTTY) process.stderr.write('\r');
console.log(JSON.stringify({ source, out: values.out, ...r, ms: Math.round(performance.now() - t0) }));
