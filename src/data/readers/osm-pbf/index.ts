/**
 * OpenStreetMap PBF reader for files of any size the disk holds, in memory bounded by what the
 * index needs (not by the file). Streams address points, places, named street lines and admin
 * areas into a SourceSink. Four passes over the file; blobs decoded on worker threads:
 *
 * 1. relation blobs, relation payloads only: which ways boundary and address relations use as
 *    outer members (sorted id array), and which kinds of element each blob holds (so that later
 *    passes read only their blobs). In a file sorted by type then id, binary searches find where
 *    the ways and relations start (kind-ranges.ts); otherwise every blob is looked at;
 * 2. way blobs: the node ids the address, street and interpolation ways and the member ways need
 *    (collected, sorted and de-duplicated in typed-array chunks), and the member ways' node lists;
 * 3. node blobs: the locations of exactly those nodes, written by the workers into shared sorted
 *    typed arrays (16 bytes a node); address and place nodes go to the sink;
 * 4. way and relation blobs again: lines, way addresses, interpolations, rings of relations.
 *
 * No per-node or per-way JS object outlives the block it came from. What is kept between passes
 * is typed arrays: the member way ids and their node lists, the needed node ids with their
 * coordinates, and the ids of nodes on interpolation ways (plus the address points of those of
 * them that carry a house number: a few per interpolation way).
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressPoint } from '../../source-types.ts';
import type { ReaderProgress, SourceReader, SourceSink } from '../../source-sink.ts';
import { BlobIndex, KIND_NODES, KIND_RELATIONS, KIND_WAYS, readAt, scanBlobs } from './blob-file.ts';
import { OsmPbfError } from './errors.ts';
import { allocateNodeLocations } from './node-locations.ts';
import { assumedKinds, findKindRanges } from './kind-ranges.ts';
import { OrderedPipeline } from './ordered-pipeline.ts';
import type { NodesPassResult } from './pass-nodes.ts';
import type { RelationsPassResult } from './pass-relations.ts';
import type { WaysPassResult } from './pass-ways.ts';
import type { RowBatch } from './row-batch.ts';
import { SortedIdCollector } from './sorted-ids.ts';
import { WayRefsCollector } from './way-refs.ts';
import { BlobWorkerPool } from './worker-pool.ts';

export { OsmPbfError } from './errors.ts';

/** Features a file may require that this reader implements (osmformat.proto, HeaderBlock). */
const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);

export interface OsmPbfReaderOptions {
  /** Worker threads decoding blobs (default: ADDRFLOW_OSM_THREADS, else the cores, at most 4). */
  threads?: number;
  /** Blobs in flight per thread (default 4): bounds the memory of the pipeline. */
  inFlightPerThread?: number;
  /** Where sorted runs of node ids are spilled (default ADDRFLOW_TMP_DIR, else the OS temp dir). */
  tmpDir?: string;
  /** Bytes of sorted node-id chunks kept in memory before spilling (default ADDRFLOW_OSM_ID_MEMORY_MB, else 256 MiB). */
  idMemoryBytes?: number;
}

/** What the reader learnt about the file, for logs and benchmarks. */
export interface OsmPbfStats {
  blobs: number;
  neededNodes: number;
  missingNodes: number;
  memberWays: number;
  /** sorted runs of needed node ids written to disk */
  spilledRuns: number;
  passes: { name: string; ms: number; bytes: number }[];
}

function defaultThreads(): number {
  const env = Number(process.env.ADDRFLOW_OSM_THREADS);
  if (Number.isInteger(env) && env > 0) return env;
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** A worker's failure, said with the file and the block's offset. */
function placed<T>(job: Promise<T>, path: string, offset: number): Promise<T> {
  return job.catch((e: Error) => {
    throw e instanceof OsmPbfError ? new OsmPbfError(e.code, `${path}: block at byte ${offset}: ${e.message}`) : e;
  });
}

function idMemoryBytes(): number {
  const mb = Number(process.env.ADDRFLOW_OSM_ID_MEMORY_MB);
  return (Number.isFinite(mb) && mb >= 0 && process.env.ADDRFLOW_OSM_ID_MEMORY_MB !== '' ? mb : 256) * 1024 * 1024;
}

function sendRows(sink: SourceSink, rows: RowBatch): void {
  for (const a of rows.addresses) sink.address(a);
  for (const p of rows.places) sink.place(p);
  for (const l of rows.lines) sink.line(l);
  for (const a of rows.admins) sink.admin(a);
  for (const [reason, n] of Object.entries(rows.rejects)) for (let i = 0; i < n; i++) sink.reject(reason);
}

export function createOsmPbfReader(options: OsmPbfReaderOptions = {}): SourceReader & { lastStats?: OsmPbfStats } {
  const reader: SourceReader & { lastStats?: OsmPbfStats } = async (path: string, sink: SourceSink, progress?: ReaderProgress): Promise<void> => {
    const fh = await open(path, 'r');
    const pool = new BlobWorkerPool(options.threads ?? defaultThreads());
    const limit = pool.size * (options.inFlightPerThread ?? 4);
    const stats: OsmPbfStats = { blobs: 0, neededNodes: 0, missingNodes: 0, memberWays: 0, spilledRuns: 0, passes: [] };
    let spillDir: string | undefined;
    try {
      spillDir = await mkdtemp(join(options.tmpDir ?? process.env.ADDRFLOW_TMP_DIR ?? tmpdir(), 'addrflow-osm-'));
      const fileSize = (await fh.stat()).size;
      if (fileSize === 0) throw new OsmPbfError('ADDR_ERR_OSM_PBF_BAD_FRAME', `${path}: empty file, not an OSM PBF`);
      let done = 0;
      let total = fileSize;
      const advance = (bytes: number): void => { done += bytes; progress?.(done, Math.max(total, done)); };

      // ---- frames: where every blob is (block headers only, nothing decompressed)
      let t0 = performance.now();
      const index = new BlobIndex();
      let header: { offset: number; size: number } | undefined;
      await scanBlobs(fh, path, fileSize, async (b) => {
        if (b.type === 'OSMHeader') { header ??= { offset: b.offset, size: b.size }; return; }
        if (b.type !== 'OSMData') return; // unknown blob types are skipped, as the format allows
        if (!header) throw new OsmPbfError('ADDR_ERR_OSM_PBF_BAD_FRAME', `${path}: data before the OSMHeader block`);
        index.push(b.offset, b.size);
      });
      if (!header) throw new OsmPbfError('ADDR_ERR_OSM_PBF_BAD_FRAME', `${path}: no OSMHeader block`);
      const head = await placed(pool.submit<{ header: { required: string[]; optional: string[] } }>(
        'OSMHeader', await readAt(fh, path, header.offset, header.size)), path, header.offset);
      const unsupported = head.header.required.filter((f) => !SUPPORTED_FEATURES.has(f));
      if (unsupported.length > 0) {
        throw new OsmPbfError('ADDR_ERR_OSM_PBF_UNSUPPORTED', `${path}: requires ${unsupported.join(', ')}, which this reader does not implement (a history or change file? use a plain extract)`);
      }
      const sorted = head.header.optional.includes('Sort.Type_then_ID');
      stats.blobs = index.count;

      // ---- pass 1: relations → member ways; the kinds of every blob
      const marked = new SortedIdCollector({ chunkSize: 1 << 20 });
      const probed = new Uint8Array(index.count);
      await pool.broadcast({ pass: 'relations' });
      const relationsOf = (i: number): Promise<RelationsPassResult> => readAt(fh, path, index.offsets[i]!, index.sizes[i]!)
        .then((bytes) => placed(pool.submit<RelationsPassResult>('OSMData', bytes), path, index.offsets[i]!));
      const took = (i: number, r: RelationsPassResult): void => {
        index.kinds[i] = r.kinds;
        probed[i] = 1;
        marked.add(r.memberWays);
      };
      let pass1Bytes = 0;
      let from = 0;
      if (sorted) {
        // nodes, then ways, then relations: find the boundaries, decompress only relation blobs
        const ranges = await findKindRanges(index.count, async (i) => {
          if (!probed[i]) { took(i, await relationsOf(i)); pass1Bytes += index.sizes[i]!; advance(index.sizes[i]!); }
          return index.kinds[i]!;
        });
        assumedKinds(index.kinds, probed, index.count, ranges);
        from = ranges.relationsFrom;
      }
      const toScan = (i: number): boolean => !probed[i] && (!sorted || (index.kinds[i]! & KIND_RELATIONS) !== 0);
      for (let i = from; i < index.count; i++) if (toScan(i)) pass1Bytes += index.sizes[i]!;
      total = pass1Bytes + index.bytesOf(KIND_WAYS) + index.bytesOf(KIND_NODES) + index.bytesOf(KIND_WAYS | KIND_RELATIONS);
      progress?.(done, total);
      const p1 = new OrderedPipeline(limit);
      for (let i = from; i < index.count; i++) {
        if (!toScan(i)) continue;
        const size = index.sizes[i]!;
        await p1.push(relationsOf(i), (r) => { took(i, r); advance(size); });
      }
      await p1.drain();
      stats.passes.push({ name: 'relations', ms: performance.now() - t0, bytes: pass1Bytes });

      const eachBlob = async <T>(mask: number, handle: (r: T) => void): Promise<number> => {
        const pipe = new OrderedPipeline(limit);
        let bytesRead = 0;
        for (let i = 0; i < index.count; i++) {
          if (!(index.kinds[i]! & mask)) continue;
          const size = index.sizes[i]!;
          const bytes = await readAt(fh, path, index.offsets[i]!, size);
          bytesRead += size;
          await pipe.push(placed(pool.submit<T & { kinds: number }>('OSMData', bytes), path, index.offsets[i]!), (r) => {
            if (r.kinds & ~index.kinds[i]!) {
              throw new OsmPbfError('ADDR_ERR_OSM_PBF_BAD_FRAME', `${path}: the header says the file is sorted by type then id, but the block at byte ${index.offsets[i]} is out of order (sort it: osmium sort)`);
            }
            handle(r);
            advance(size);
          });
        }
        await pipe.drain();
        return bytesRead;
      };

      // ---- pass 2: ways → needed node ids, member ways' node lists
      t0 = performance.now();
      const markedWays = marked.finish();
      const needed = new SortedIdCollector({ spillDir, memoryBytes: options.idMemoryBytes ?? idMemoryBytes() });
      const interpolation = new SortedIdCollector({ chunkSize: 1 << 16 });
      const members = new WayRefsCollector();
      await pool.broadcast({ pass: 'ways', markedWays });
      let bytes = await eachBlob<WaysPassResult>(KIND_WAYS, (r) => {
        needed.add(r.neededNodes);
        interpolation.add(r.interpolationNodes);
        members.add(r.members);
      });
      const memberWays = members.finish();
      const interpolationNodes = interpolation.finish();
      const nodes = allocateNodeLocations(needed.finish());
      stats.spilledRuns = needed.spilledRuns;
      stats.neededNodes = nodes.ids.length;
      stats.memberWays = memberWays.ids.length;
      stats.passes.push({ name: 'ways', ms: performance.now() - t0, bytes });

      // ---- pass 3: nodes → locations of the needed ones; address and place nodes
      t0 = performance.now();
      const ends: [number, AddressPoint][] = [];
      await pool.broadcast({ pass: 'nodes', nodes, interpolationNodes });
      bytes = await eachBlob<NodesPassResult>(KIND_NODES, (r) => {
        sendRows(sink, r.rows);
        for (const e of r.interpolationEnds) ends.push(e);
      });
      for (let i = 0; i < nodes.lat.length; i++) if (nodes.lat[i] === -0x80000000) stats.missingNodes++;
      stats.passes.push({ name: 'nodes', ms: performance.now() - t0, bytes });

      // ---- pass 4: ways and relations with their geometry
      t0 = performance.now();
      await pool.broadcast({ pass: 'emit', nodes, memberWays, interpolationEnds: ends });
      bytes = await eachBlob<RowBatch>(KIND_WAYS | KIND_RELATIONS, (r) => sendRows(sink, r));
      stats.passes.push({ name: 'ways+relations', ms: performance.now() - t0, bytes });
      progress?.(total, total);
    } finally {
      await pool.close();
      await fh.close();
      if (spillDir) await rm(spillDir, { recursive: true, force: true });
      reader.lastStats = stats;
    }
  };
  return reader;
}

/** The OSM PBF reader with default options. */
export const readOsmPbf: SourceReader = createOsmPbfReader();
