/**
 * A small OSM PBF writer for generated inputs (tests, the tiler): elements as plain objects →
 * a valid PBF file, encoded by the generated `pbf` writers of OSM's published schema (no hand-made
 * wire format) and zlib. One block per element kind, ids as given (sort them for a sorted file).
 * Not a general-purpose writer: no metadata, at most a few thousand elements per call.
 */
import { writeFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import {
  PbfWriter, writeBlob, writeBlobHeader, writeHeaderBlock, writePrimitiveBlock,
  type PrimitiveBlock, type PrimitiveGroup,
} from '../src/data/readers/osm-pbf/proto.ts';

export type TagMap = Record<string, string>;
export interface NodeSpec { id: number; lat: number; lon: number; tags?: TagMap }
export interface WaySpec { id: number; refs: number[]; tags?: TagMap }
export interface MemberSpec { type: 'node' | 'way' | 'relation'; ref: number; role: string }
export interface RelationSpec { id: number; members: MemberSpec[]; tags?: TagMap }

export interface WriteOptions {
  /** DenseNodes (default) or plain Node messages. */
  dense?: boolean;
  /** nanodegrees per coordinate unit (default 100) */
  granularity?: number;
  latOffset?: number;
  lonOffset?: number;
  /** zlib level; -1 writes raw blobs */
  level?: number;
  /** whether the header declares Sort.Type_then_ID (default true) */
  sortedHeader?: boolean;
  /** order of the blocks (default nodes, ways, relations) */
  blockOrder?: ('nodes' | 'ways' | 'relations')[];
}

/** One file block: 4-byte big-endian header length, BlobHeader, Blob. */
export function frame(type: string, payload: Uint8Array, level = 6): Buffer {
  const blob = new PbfWriter();
  writeBlob(level < 0 ? { raw: payload } : { raw_size: payload.length, zlib_data: deflateSync(payload, { level }) }, blob);
  const blobBytes = blob.finish();
  const header = new PbfWriter();
  writeBlobHeader({ type, datasize: blobBytes.length }, header);
  const headerBytes = header.finish();
  const len = Buffer.alloc(4);
  len.writeUInt32BE(headerBytes.length, 0);
  return Buffer.concat([len, headerBytes, blobBytes]);
}

export function headerFrame(level = 6, optional: string[] = ['Sort.Type_then_ID'], required = ['OsmSchema-V0.6', 'DenseNodes']): Buffer {
  const hb = new PbfWriter();
  writeHeaderBlock({ required_features: required, optional_features: optional, writingprogram: 'addrflow' }, hb);
  return frame('OSMHeader', hb.finish(), level);
}

export function encodeBlock(b: PrimitiveBlock): Uint8Array {
  const pbf = new PbfWriter();
  writePrimitiveBlock(b, pbf);
  return pbf.finish();
}

class StringTable {
  private readonly index = new Map<string, number>([['', 0]]);
  readonly list: string[] = [''];
  id(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) { i = this.list.length; this.list.push(s); this.index.set(s, i); }
    return i;
  }
  encode(): { s: Uint8Array[] } {
    const enc = new TextEncoder();
    return { s: this.list.map((x) => enc.encode(x)) };
  }
}

function delta(values: number[]): number[] {
  let prev = 0;
  return values.map((v) => { const d = v - prev; prev = v; return d; });
}

const MEMBER_TYPE = { node: 0, way: 1, relation: 2 } as const;

export async function writeOsmPbf(
  path: string, elements: { nodes?: NodeSpec[]; ways?: WaySpec[]; relations?: RelationSpec[] }, opts: WriteOptions = {},
): Promise<void> {
  const g = opts.granularity ?? 100, latOff = opts.latOffset ?? 0, lonOff = opts.lonOffset ?? 0, level = opts.level ?? 6;
  const parts: Buffer[] = [headerFrame(level, opts.sortedHeader === false ? [] : ['Sort.Type_then_ID'])];
  const blocks = new Map<string, Buffer>();
  let kind = '';
  const block = (build: (st: StringTable) => Partial<PrimitiveGroup>): void => {
    const st = new StringTable();
    const group: PrimitiveGroup = { nodes: [], dense: undefined, ways: [], relations: [], changesets: [], ...build(st) };
    const b: PrimitiveBlock = { stringtable: st.encode(), primitivegroup: [group], granularity: g, lat_offset: latOff, lon_offset: lonOff, date_granularity: 1000 };
    blocks.set(kind, frame('OSMData', encodeBlock(b), level));
  };
  const kv = (st: StringTable, tags: TagMap = {}): { keys: number[]; vals: number[] } => {
    const keys: number[] = [], vals: number[] = [];
    for (const [k, v] of Object.entries(tags)) { keys.push(st.id(k)); vals.push(st.id(v)); }
    return { keys, vals };
  };
  const units = (deg: number, off: number): number => Math.round((deg * 1e9 - off) / g);
  const nodes = elements.nodes ?? [];
  kind = 'nodes';
  if (nodes.length) {
    block((st) => {
      if (opts.dense === false) {
        return { nodes: nodes.map((n) => ({ id: n.id, ...kv(st, n.tags), lat: units(n.lat, latOff), lon: units(n.lon, lonOff) })) };
      }
      const keysVals: number[] = [];
      for (const n of nodes) { const t = kv(st, n.tags); t.keys.forEach((k, i) => keysVals.push(k, t.vals[i]!)); keysVals.push(0); }
      return {
        dense: {
          id: delta(nodes.map((n) => n.id)), lat: delta(nodes.map((n) => units(n.lat, latOff))),
          lon: delta(nodes.map((n) => units(n.lon, lonOff))), keys_vals: keysVals,
        },
      };
    });
  }
  const ways = elements.ways ?? [];
  kind = 'ways';
  if (ways.length) block((st) => ({ ways: ways.map((w) => ({ id: w.id, ...kv(st, w.tags), refs: delta(w.refs) })) }));
  const rels = elements.relations ?? [];
  kind = 'relations';
  if (rels.length) {
    block((st) => ({
      relations: rels.map((r) => ({
        id: r.id, ...kv(st, r.tags),
        roles_sid: r.members.map((m) => st.id(m.role)),
        memids: delta(r.members.map((m) => m.ref)),
        types: r.members.map((m) => MEMBER_TYPE[m.type]),
      })),
    }));
  }
  for (const k of opts.blockOrder ?? ['nodes', 'ways', 'relations']) { const b = blocks.get(k); if (b) parts.push(b); }
  await writeFile(path, Buffer.concat(parts));
}
