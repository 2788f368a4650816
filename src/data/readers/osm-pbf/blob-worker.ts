/**
 * Worker thread entry: decodes the blobs the reader sends (inflate + protobuf), runs the current
 * pass over the block and posts back typed arrays or rows. The pass's context (shared node store,
 * marked ways, …) arrives once per pass; SharedArrayBuffers are shared, not copied.
 */
import { parentPort } from 'node:worker_threads';
import type { AddressPoint } from '../../source-types.ts';
import { decodeHeaderBlock, decodePrimitiveBlock } from './blob-decode.ts';
import { NodeLocations } from './node-locations.ts';
import { WayRefs } from './way-refs.ts';
import { relationsPass } from './pass-relations.ts';
import { waysPass } from './pass-ways.ts';
import { nodesPass } from './pass-nodes.ts';
import { emitPass } from './pass-emit.ts';
import { blockKinds } from './block-kinds.ts';
import type { FromWorker, PassContext, ToWorker } from './worker-protocol.ts';
import { OsmPbfError } from './errors.ts';

if (!parentPort) throw new Error('blob-worker.ts runs as a worker thread');
const port = parentPort;

let ctx: PassContext = { pass: 'relations' };
let store: NodeLocations | undefined;
let ways: WayRefs | undefined;
let ends: Map<number, AddressPoint> = new Map();

function setContext(c: PassContext): void {
  ctx = c;
  store = c.pass === 'nodes' || c.pass === 'emit' ? new NodeLocations(c.nodes) : undefined;
  ways = c.pass === 'emit' ? new WayRefs(c.memberWays) : undefined;
  ends = c.pass === 'emit' ? new Map(c.interpolationEnds) : new Map();
}

/** Transferable buffers of a result (never the SharedArrayBuffers, which are shared anyway). */
function transferList(v: unknown, out: ArrayBuffer[] = []): ArrayBuffer[] {
  if (ArrayBuffer.isView(v)) {
    if (v.buffer instanceof ArrayBuffer && !out.includes(v.buffer)) out.push(v.buffer);
  } else if (v && typeof v === 'object' && !Array.isArray(v)) {
    for (const x of Object.values(v)) transferList(x, out);
  }
  return out;
}

function run(blobType: string, bytes: Uint8Array): unknown {
  if (blobType === 'OSMHeader') {
    const h = decodeHeaderBlock(bytes);
    return { header: { required: h.required_features, optional: h.optional_features } };
  }
  if (ctx.pass === 'relations') return relationsPass(decodePrimitiveBlock(bytes, 'relations'));
  // every result says which kinds the block held, so that the reader can check its assumptions
  const block = decodePrimitiveBlock(bytes);
  const kinds = blockKinds(block);
  switch (ctx.pass) {
    case 'ways': return { kinds, ...waysPass(block, ctx.markedWays) };
    case 'nodes': return { kinds, ...nodesPass(block, store!, ctx.interpolationNodes) };
    case 'emit': return { kinds, ...emitPass(block, store!, ways!, ends) };
  }
}

port.on('message', (m: ToWorker) => {
  let reply: FromWorker;
  try {
    if (m.op === 'context') { setContext(m.ctx); reply = { id: m.id, ok: true, result: null }; }
    else reply = { id: m.id, ok: true, result: run(m.blobType, m.bytes) };
  } catch (e) {
    // a zlib or protobuf failure is a damaged block; our own errors keep their code
    const err = e as Error & { code?: string };
    const code = err instanceof OsmPbfError ? err.code : 'ADDR_ERR_OSM_PBF_BAD_BLOB';
    reply = { id: m.id, ok: false, code, message: err instanceof OsmPbfError ? err.message : `damaged block: ${err.message}` };
  }
  port.postMessage(reply, reply.ok ? transferList(reply.result) : []);
});
