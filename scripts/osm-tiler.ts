/**
 * Makes a large OSM PBF out of a small real extract by tiling it: tile t is a copy of the extract
 * whose node, way and relation ids are moved by t × a power of ten above the extract's largest id,
 * and whose coordinates are moved by a whole tile width/height on a grid. Every copy is the real
 * data (same tags, same shapes), so a reader must yield exactly tiles × the extract's counts.
 *
 * Written with the project's own encoder: OSM's published .proto schemas compiled by `pbf`
 * (src/data/readers/osm-pbf/proto.ts) and zlib, in the order osmium writes (header, all nodes,
 * all ways, all relations, ids ascending: "Sort.Type_then_ID"). Only the first value of each
 * delta-coded column changes when a block is moved, so the copies are cheap to make.
 * Used by the >2^24-node test and by `scripts/gen-osm-tiled.ts` (the benchmark's 50M-node file).
 */
import { open } from 'node:fs/promises';
import { readAt, scanBlobs } from '../src/data/readers/osm-pbf/blob-file.ts';
import { decodeHeaderBlock, decodePrimitiveBlock } from '../src/data/readers/osm-pbf/blob-decode.ts';
import { undelta } from '../src/data/readers/osm-pbf/block-kinds.ts';
import { granularityOf, type HeaderBlock, type PrimitiveBlock, type PrimitiveGroup } from '../src/data/readers/osm-pbf/proto.ts';
import { encodeBlock, frame, headerFrame } from './osm-pbf-writer.ts';

export interface TileSource {
  header: HeaderBlock;
  /** the extract's blocks split by kind (one kind of group per block) */
  nodes: PrimitiveBlock[];
  ways: PrimitiveBlock[];
  relations: PrimitiveBlock[];
  nodeCount: number;
  wayCount: number;
  relationCount: number;
  maxId: { node: number; way: number; relation: number };
  bbox: { minLon: number; minLat: number; maxLon: number; maxLat: number };
}

/** Reads and decodes a (small) extract whole. */
export async function loadTileSource(path: string): Promise<TileSource> {
  const fh = await open(path, 'r');
  const src: TileSource = {
    header: { required_features: ['OsmSchema-V0.6', 'DenseNodes'], optional_features: [] },
    nodes: [], ways: [], relations: [], nodeCount: 0, wayCount: 0, relationCount: 0,
    maxId: { node: 0, way: 0, relation: 0 },
    bbox: { minLon: Infinity, minLat: Infinity, maxLon: -Infinity, maxLat: -Infinity },
  };
  try {
    const size = (await fh.stat()).size;
    await scanBlobs(fh, path, size, async (b) => {
      const bytes = await readAt(fh, path, b.offset, b.size);
      if (b.type === 'OSMHeader') { src.header = decodeHeaderBlock(bytes); return; }
      if (b.type !== 'OSMData') return;
      const block = decodePrimitiveBlock(bytes, 'full');
      const g = granularityOf(block);
      const only = (pick: (grp: PrimitiveGroup) => PrimitiveGroup | undefined): PrimitiveBlock | undefined => {
        const groups = block.primitivegroup.map(pick).filter((x): x is PrimitiveGroup => !!x);
        return groups.length ? { ...block, primitivegroup: groups } : undefined;
      };
      const empty = { nodes: [], dense: undefined, ways: [], relations: [], changesets: [] };
      const nb = only((grp) => (grp.dense || grp.nodes.length ? { ...empty, dense: grp.dense, nodes: grp.nodes } : undefined));
      const wb = only((grp) => (grp.ways.length ? { ...empty, ways: grp.ways } : undefined));
      const rb = only((grp) => (grp.relations.length ? { ...empty, relations: grp.relations } : undefined));
      if (nb) {
        src.nodes.push(nb);
        for (const grp of nb.primitivegroup) {
          const pts: { id: number; lat: number; lon: number }[] = grp.nodes.map((n) => ({ id: n.id, lat: n.lat, lon: n.lon }));
          if (grp.dense) {
            const ids = undelta(grp.dense.id), lats = undelta(grp.dense.lat), lons = undelta(grp.dense.lon);
            for (let i = 0; i < ids.length; i++) pts.push({ id: ids[i]!, lat: lats[i]!, lon: lons[i]! });
          }
          for (const p of pts) {
            src.nodeCount++;
            src.maxId.node = Math.max(src.maxId.node, p.id);
            const lat = 1e-9 * (block.lat_offset + g * p.lat), lon = 1e-9 * (block.lon_offset + g * p.lon);
            src.bbox.minLat = Math.min(src.bbox.minLat, lat); src.bbox.maxLat = Math.max(src.bbox.maxLat, lat);
            src.bbox.minLon = Math.min(src.bbox.minLon, lon); src.bbox.maxLon = Math.max(src.bbox.maxLon, lon);
          }
        }
      }
      if (wb) {
        src.ways.push(wb);
        for (const grp of wb.primitivegroup) for (const w of grp.ways) { src.wayCount++; src.maxId.way = Math.max(src.maxId.way, w.id); }
      }
      if (rb) {
        src.relations.push(rb);
        for (const grp of rb.primitivegroup) for (const r of grp.relations) { src.relationCount++; src.maxId.relation = Math.max(src.maxId.relation, r.id); }
      }
    });
  } finally {
    await fh.close();
  }
  return src;
}

/** How tile t is moved. */
export interface TileShift {
  node: number; way: number; relation: number;
  /** degrees */
  dLon: number; dLat: number;
}

/** The power of ten above `max` (ids of tile t are id + t × step). */
function idStep(max: number): number {
  return 10 ** Math.ceil(Math.log10(max + 1));
}

export function tileShifts(src: TileSource, tiles: number): TileShift[] {
  const w = Math.ceil((src.bbox.maxLon - src.bbox.minLon) * 110) / 100 || 0.01;
  const h = Math.ceil((src.bbox.maxLat - src.bbox.minLat) * 110) / 100 || 0.01;
  // a grid as square as possible, kept inside ±85° latitude
  const cols = Math.max(1, Math.ceil(Math.sqrt(tiles)), Math.ceil(tiles / Math.floor(80 / h)));
  const steps = { node: idStep(src.maxId.node), way: idStep(src.maxId.way), relation: idStep(src.maxId.relation) };
  if ((tiles + 1) * steps.node > Number.MAX_SAFE_INTEGER) throw new Error(`too many tiles: node ids would pass 2^53`);
  const out: TileShift[] = [];
  for (let t = 0; t < tiles; t++) {
    out.push({ node: t * steps.node, way: t * steps.way, relation: t * steps.relation, dLon: (t % cols) * w, dLat: -Math.floor(t / cols) * h });
  }
  return out;
}

function movedBlock(b: PrimitiveBlock, s: TileShift): PrimitiveBlock {
  const g = granularityOf(b);
  const dLat = Math.round((s.dLat * 1e9) / g), dLon = Math.round((s.dLon * 1e9) / g);
  const groups = b.primitivegroup.map((grp): PrimitiveGroup => {
    const out: PrimitiveGroup = { nodes: [], dense: undefined, ways: [], relations: [], changesets: [] };
    if (grp.dense) {
      const d = grp.dense;
      const id = d.id.slice(), lat = d.lat.slice(), lon = d.lon.slice();
      if (id.length) { id[0]! += s.node; lat[0]! += dLat; lon[0]! += dLon; }
      out.dense = { ...d, id, lat, lon };
    }
    out.nodes = grp.nodes.map((n) => ({ ...n, id: n.id + s.node, lat: n.lat + dLat, lon: n.lon + dLon }));
    out.ways = grp.ways.map((w) => {
      const refs = w.refs.slice();
      if (refs.length) refs[0]! += s.node;
      return { ...w, id: w.id + s.way, refs };
    });
    out.relations = grp.relations.map((r) => {
      const abs = undelta(r.memids);
      const memids = new Array<number>(abs.length);
      let prev = 0;
      for (let i = 0; i < abs.length; i++) {
        const t = r.types[i];
        const v = abs[i]! + (t === 0 ? s.node : t === 1 ? s.way : s.relation);
        memids[i] = v - prev;
        prev = v;
      }
      return { ...r, id: r.id + s.relation, memids };
    });
    return out;
  });
  return { ...b, primitivegroup: groups };
}

export interface TileOptions {
  tiles: number;
  /** zlib level (1 fastest … 9 smallest; -1 writes raw, uncompressed blobs). Default 6. */
  level?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface TileResult {
  tiles: number;
  nodes: number;
  ways: number;
  relations: number;
  bytes: number;
}

/** Writes `tiles` moved copies of `src` to `outPath` as one sorted PBF. */
export async function writeTiledPbf(src: TileSource, outPath: string, opts: TileOptions): Promise<TileResult> {
  const level = opts.level ?? 6;
  const shifts = tileShifts(src, opts.tiles);
  const fh = await open(outPath, 'w');
  let bytes = 0;
  const write = async (buf: Buffer): Promise<void> => { await fh.write(buf); bytes += buf.length; };
  try {
    await write(headerFrame(level, ['Sort.Type_then_ID'], src.header.required_features));
    const kinds = [src.nodes, src.ways, src.relations];
    const total = opts.tiles * kinds.length;
    let done = 0;
    for (const blocks of kinds) {
      for (const s of shifts) {
        for (const b of blocks) await write(frame('OSMData', encodeBlock(movedBlock(b, s)), level));
        opts.onProgress?.(++done, total);
      }
    }
  } finally {
    await fh.close();
  }
  return { tiles: opts.tiles, nodes: src.nodeCount * opts.tiles, ways: src.wayCount * opts.tiles, relations: src.relationCount * opts.tiles, bytes };
}
