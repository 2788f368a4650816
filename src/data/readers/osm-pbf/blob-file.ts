/**
 * File framing of an OSM PBF: a sequence of (4-byte big-endian header length, BlobHeader,
 * Blob). `scanBlobs` walks the frames once and records where every blob is, in typed arrays
 * (`BlobIndex`); later passes read only the blobs they need, by offset, straight into a fresh
 * buffer that can be transferred to a worker thread without a copy.
 */
import type { FileHandle } from 'node:fs/promises';
import { PbfReader, readBlobHeader } from './proto.ts';
import { OsmPbfError } from './errors.ts';

/** Largest header and blob the format allows (fileformat.proto: 64 KiB and 32 MiB). */
const MAX_HEADER = 64 * 1024;
const MAX_BLOB = 32 * 1024 * 1024;

/** Element kinds a blob holds, as learnt by pass 1 (bit mask). */
export const KIND_NODES = 1;
export const KIND_WAYS = 2;
export const KIND_RELATIONS = 4;

/** Where each data blob of the file lives and what it holds: three typed arrays, no objects. */
export class BlobIndex {
  count = 0;
  offsets = new Float64Array(1024);
  sizes = new Int32Array(1024);
  kinds = new Uint8Array(1024);

  push(offset: number, size: number): number {
    if (this.count === this.offsets.length) {
      const n = this.count * 2;
      const o = new Float64Array(n); o.set(this.offsets); this.offsets = o;
      const s = new Int32Array(n); s.set(this.sizes); this.sizes = s;
      const k = new Uint8Array(n); k.set(this.kinds); this.kinds = k;
    }
    this.offsets[this.count] = offset;
    this.sizes[this.count] = size;
    return this.count++;
  }

  /** Compressed bytes of the blobs that hold any of `mask`'s kinds. */
  bytesOf(mask: number): number {
    let n = 0;
    for (let i = 0; i < this.count; i++) if (this.kinds[i]! & mask) n += this.sizes[i]!;
    return n;
  }
}

/** Reads exactly `length` bytes at `offset` into a new buffer of its own (transferable). */
export async function readAt(fh: FileHandle, path: string, offset: number, length: number): Promise<Uint8Array> {
  const buf = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buf, done, length - done, offset + done);
    if (bytesRead === 0) {
      throw new OsmPbfError('ADDR_ERR_OSM_PBF_TRUNCATED', `${path}: file ends at byte ${offset + done}, inside a block that needs ${length} bytes from byte ${offset}`);
    }
    done += bytesRead;
  }
  return buf;
}

export interface FramedBlob {
  /** 'OSMHeader' or 'OSMData' (other types are skipped by the reader, as the format says). */
  type: string;
  offset: number;
  size: number;
}

/** Walks the frames of the file; calls `onBlob` for each, in file order, awaiting it. */
export async function scanBlobs(fh: FileHandle, path: string, fileSize: number, onBlob: (b: FramedBlob) => Promise<void>): Promise<void> {
  let pos = 0;
  const head = new Uint8Array(4 + 256);
  while (pos < fileSize) {
    const want = Math.min(head.length, fileSize - pos);
    if (want < 4) throw new OsmPbfError('ADDR_ERR_OSM_PBF_TRUNCATED', `${path}: ${want} stray bytes at the end (byte ${pos})`);
    let got = 0;
    while (got < want) {
      const { bytesRead } = await fh.read(head, got, want - got, pos + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    const hlen = new DataView(head.buffer, 0, 4).getUint32(0, false);
    if (hlen === 0 || hlen > MAX_HEADER) {
      throw new OsmPbfError('ADDR_ERR_OSM_PBF_BAD_FRAME', `${path}: not an OSM PBF, or damaged: header length ${hlen} at byte ${pos}`);
    }
    if (pos + 4 + hlen > fileSize) throw new OsmPbfError('ADDR_ERR_OSM_PBF_TRUNCATED', `${path}: file ends inside the block header at byte ${pos}`);
    const hbytes = 4 + hlen <= got ? head.subarray(4, 4 + hlen) : await readAt(fh, path, pos + 4, hlen);
    let header;
    try {
      header = readBlobHeader(new PbfReader(hbytes));
    } catch (e) {
      throw new OsmPbfError('ADDR_ERR_OSM_PBF_BAD_FRAME', `${path}: unreadable block header at byte ${pos}: ${(e as Error).message}`);
    }
    const size = header.datasize;
    if (!(size >= 0 && size <= MAX_BLOB) || !header.type) {
      throw new OsmPbfError('ADDR_ERR_OSM_PBF_BAD_FRAME', `${path}: bad block header at byte ${pos} (type '${header.type}', ${size} bytes)`);
    }
    const offset = pos + 4 + hlen;
    if (offset + size > fileSize) {
      throw new OsmPbfError('ADDR_ERR_OSM_PBF_TRUNCATED', `${path}: file ends at byte ${fileSize}, inside a block of ${size} bytes from byte ${offset}`);
    }
    await onBlob({ type: header.type, offset, size });
    pos = offset + size;
  }
}
