/**
 * Sorted runs of ids spilled to disk, and the k-way merge that reads them back. A run is a file of
 * ascending float64 ids (native byte order: written and read by the same process). The merge reads
 * each run through its own 1 MiB buffer and keeps the run heads in a binary heap, so memory is
 * O(runs) whatever the total, and time O(n log runs).
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

const BUF_IDS = 1 << 17; // 1 MiB of float64

export function writeRun(path: string, ids: Float64Array): void {
  const fd = openSync(path, 'w');
  try {
    const bytes = new Uint8Array(ids.buffer, ids.byteOffset, ids.byteLength);
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
  } finally {
    closeSync(fd);
  }
}

/** A cursor over one sorted run: in memory, or in a file read a buffer at a time. */
export interface RunCursor {
  /** current id (valid while !done) */
  head: number;
  done: boolean;
  next(): void;
  close(): void;
}

export function memoryRun(ids: Float64Array): RunCursor {
  let i = 0;
  const c: RunCursor = {
    head: ids[0] ?? 0, done: ids.length === 0,
    next() { i++; if (i < ids.length) c.head = ids[i]!; else c.done = true; },
    close() {},
  };
  return c;
}

export function fileRun(path: string, count: number): RunCursor {
  const fd = openSync(path, 'r');
  const buf = new Float64Array(Math.min(BUF_IDS, Math.max(1, count)));
  const bytes = new Uint8Array(buf.buffer);
  let filePos = 0, inBuf = 0, i = 0, left = count;
  const fill = (): void => {
    const want = Math.min(buf.length, left) * 8;
    let got = 0;
    while (got < want) {
      const n = readSync(fd, bytes, got, want - got, filePos + got);
      if (n === 0) throw new Error(`${path}: spilled id run ends early`);
      got += n;
    }
    filePos += got;
    inBuf = got / 8;
    left -= inBuf;
    i = 0;
  };
  const c: RunCursor = {
    head: 0, done: count === 0,
    next() {
      i++;
      if (i >= inBuf) {
        if (left === 0) { c.done = true; return; }
        fill();
      }
      c.head = buf[i]!;
    },
    close() { closeSync(fd); },
  };
  if (count > 0) { fill(); c.head = buf[0]!; }
  return c;
}

/** Merges sorted runs into `out` without duplicates; returns how many ids were written. */
export function mergeRuns(runs: RunCursor[], out: Float64Array): number {
  // binary min-heap of run indices by head
  const heap: number[] = [];
  const less = (a: number, b: number): boolean => runs[a]!.head < runs[b]!.head;
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  runs.forEach((r, k) => { if (!r.done) heap.push(k); });
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  let n = 0;
  while (heap.length > 0) {
    const run = runs[heap[0]!]!;
    const v = run.head;
    if (n === 0 || out[n - 1] !== v) out[n++] = v;
    run.next();
    if (run.done) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    if (heap.length > 0) down(0);
  }
  for (const r of runs) r.close();
  return n;
}
