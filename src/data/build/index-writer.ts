/**
 * Streams the index file out section by section: the table of contents is computed from the
 * sections' lengths first, then each section is written from its typed array or copied from its
 * spilled temporary file (optionally remapped through a u32 table on the way), in blocks. The
 * whole file never exists in memory. Offsets are plain numbers, so files over 2 GiB (or 4 GiB)
 * are fine; the file appears under its final name only when complete (write + rename).
 */
import { closeSync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { COLUMNS, INDEX_FORMAT_VERSION, INDEX_MAGIC, type ColumnName, type IndexMeta } from '../../engine/index/format.ts';

export type Section =
  | { array: Uint8Array | Uint32Array | Int32Array }
  | { file: string; length: number; remap?: Uint32Array };

const enc = new TextEncoder();
const pad = (x: number) => (x + 7) - ((x + 7) % 8);
const BLOCK = 1 << 22;

function sectionLength(s: Section): number {
  return 'array' in s ? s.array.length : s.length;
}

function elementSize(name: ColumnName): number {
  return COLUMNS[name] === 'u8' ? 1 : 4;
}

/** The header (magic, version, TOC) and the section offsets. */
export function layout(sections: Record<ColumnName, Section>, meta: IndexMeta): { header: Uint8Array; offsets: Record<string, number>; total: number } {
  const names = Object.keys(COLUMNS) as ColumnName[];
  const tocFor = (start: number) => {
    const toc: Record<string, [number, number]> = {};
    let off = start;
    for (const nm of names) {
      const len = sectionLength(sections[nm]);
      toc[nm] = [off, len];
      off = pad(off + len * elementSize(nm));
    }
    return { json: JSON.stringify({ sections: toc, meta }), end: off, toc };
  };
  let start = 0;
  let t = tocFor(0);
  for (let i = 0; i < 8; i++) {
    const s = pad(16 + enc.encode(t.json).length + 64);
    if (s === start) break;
    start = s;
    t = tocFor(start);
  }
  const tocBytes = enc.encode(t.json);
  if (16 + tocBytes.length > start) throw new Error('index header overflow');
  const header = new Uint8Array(start);
  header.set(enc.encode(INDEX_MAGIC), 0);
  const dv = new DataView(header.buffer);
  dv.setUint32(8, INDEX_FORMAT_VERSION, true);
  dv.setUint32(12, tocBytes.length, true);
  header.set(tocBytes, 16);
  const offsets: Record<string, number> = {};
  for (const nm of names) offsets[nm] = t.toc[nm]![0];
  return { header, offsets, total: t.end };
}

/** Writes the index to `path` (via `path.tmp-PID` and a rename); returns the file size. */
export function writeIndexFile(path: string, sections: Record<ColumnName, Section>, meta: IndexMeta): number {
  const { header, offsets, total } = layout(sections, meta);
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    writeAll(fd, header, 0);
    for (const nm of Object.keys(COLUMNS) as ColumnName[]) {
      const s = sections[nm];
      const at = offsets[nm]!;
      if ('array' in s) {
        writeAll(fd, new Uint8Array(s.array.buffer, s.array.byteOffset, s.array.byteLength), at);
      } else {
        copyFile(fd, s, at);
      }
    }
    ftruncateSync(fd, total); // the last section's padding
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  return total;
}

/** The same layout into one buffer (small indexes: tests and the embedded default index). */
export function indexBytes(sections: Record<ColumnName, Section>, meta: IndexMeta): Uint8Array {
  const { header, offsets, total } = layout(sections, meta);
  const out = new Uint8Array(total);
  out.set(header, 0);
  for (const nm of Object.keys(COLUMNS) as ColumnName[]) {
    const s = sections[nm];
    if (!('array' in s)) throw new Error('indexBytes takes in-memory sections only');
    out.set(new Uint8Array(s.array.buffer, s.array.byteOffset, s.array.byteLength), offsets[nm]!);
  }
  return out;
}

function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  let off = 0;
  while (off < bytes.length) {
    const n = Math.min(bytes.length - off, 1 << 30);
    off += writeSync(fd, bytes, off, n, position + off);
  }
}

function copyFile(fd: number, s: { file: string; length: number; remap?: Uint32Array }, at: number): void {
  const src = openSync(s.file, 'r');
  try {
    const buf = new Uint32Array(BLOCK);
    const bytes = new Uint8Array(buf.buffer);
    let done = 0;
    const total = s.length * 4;
    while (done < total) {
      let got = 0;
      const want = Math.min(bytes.length, total - done);
      while (got < want) {
        const n = readSync(src, bytes, got, want - got, done + got);
        if (n === 0) throw new Error(`short read of ${s.file}`);
        got += n;
      }
      if (s.remap) {
        const m = s.remap;
        for (let i = 0; i < got >> 2; i++) buf[i] = m[buf[i]!]!;
      }
      writeAll(fd, bytes.subarray(0, got), at + done);
      done += got;
    }
  } finally {
    closeSync(src);
  }
}
