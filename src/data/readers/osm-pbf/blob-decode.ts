/**
 * One blob → its PrimitiveBlock (or HeaderBlock). Each blob is an independent zlib stream, which
 * is what lets the reader decode them on several worker threads at once.
 */
import { inflateSync } from 'node:zlib';
import {
  PbfReader, readBlob, readHeaderBlock, readPrimitiveBlock, readPrimitiveBlockRelationsOnly, readPrimitiveBlockWithoutMetadata,
  type HeaderBlock, type PrimitiveBlock,
} from './proto.ts';
import { OsmPbfError } from './errors.ts';

/** The uncompressed payload of a Blob message. */
export function blobPayload(bytes: Uint8Array): Uint8Array {
  const blob = readBlob(new PbfReader(bytes));
  if (blob.raw && blob.raw.length > 0) return blob.raw;
  if (blob.zlib_data && blob.zlib_data.length > 0) {
    const out = inflateSync(blob.zlib_data);
    if (blob.raw_size && out.length !== blob.raw_size) {
      throw new OsmPbfError('ADDR_ERR_OSM_PBF_BAD_BLOB', `blob inflates to ${out.length} bytes, its header says ${blob.raw_size}`);
    }
    return out;
  }
  if (blob.lzma_data && blob.lzma_data.length > 0) throw new OsmPbfError('ADDR_ERR_OSM_PBF_UNSUPPORTED', 'LZMA-compressed blobs are not supported (re-encode with zlib: osmium cat -o out.osm.pbf)');
  if (blob.OBSOLETE_bzip2_data && blob.OBSOLETE_bzip2_data.length > 0) throw new OsmPbfError('ADDR_ERR_OSM_PBF_UNSUPPORTED', 'bzip2-compressed blobs are not supported');
  if (blob.raw_size === 0) return new Uint8Array(0);
  throw new OsmPbfError('ADDR_ERR_OSM_PBF_UNSUPPORTED', 'blob in an unknown compression (not raw or zlib)');
}

export function decodeHeaderBlock(bytes: Uint8Array): HeaderBlock {
  return readHeaderBlock(new PbfReader(blobPayload(bytes)));
}

/** How much of a data block to decode (see the schema views in proto.ts). */
export type BlockView = 'full' | 'elements' | 'relations';

export function decodePrimitiveBlock(bytes: Uint8Array, view: BlockView = 'elements'): PrimitiveBlock {
  const payload = blobPayload(bytes);
  const read = view === 'relations' ? readPrimitiveBlockRelationsOnly : view === 'elements' ? readPrimitiveBlockWithoutMetadata : readPrimitiveBlock;
  return read(new PbfReader(payload));
}
