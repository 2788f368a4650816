/**
 * A u32/i32 column written to a temporary file as it is produced (in 4 MiB blocks), so that a
 * large output column does not sit in memory beside the stores it is computed from. The writer
 * copies it into the index file afterwards. `TempDir` tracks the bytes in use and their peak.
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class TempDir {
  readonly path: string;
  private live = 0;
  peak = 0;
  constructor(parent: string) {
    this.path = mkdtempSync(join(parent, 'addrflow-build-'));
  }
  grew(bytes: number): void {
    this.live += bytes;
    if (this.live > this.peak) this.peak = this.live;
  }
  shrank(bytes: number): void {
    this.live -= bytes;
  }
  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

const BLOCK = 1 << 20; // values per block (4 MiB)

export class SpillColumn {
  readonly path: string;
  length = 0;
  private fd: number;
  private readonly buf: Int32Array | Uint32Array;
  private n = 0;
  private readonly tmp: TempDir;
  constructor(tmp: TempDir, name: string, signed: boolean) {
    this.tmp = tmp;
    this.path = join(tmp.path, `${name}.col`);
    this.fd = openSync(this.path, 'w');
    this.buf = signed ? new Int32Array(BLOCK) : new Uint32Array(BLOCK);
  }
  push(v: number): void {
    this.buf[this.n++] = v;
    this.length++;
    if (this.n === BLOCK) this.flush();
  }
  finish(): void {
    this.flush();
    closeSync(this.fd);
    this.fd = -1;
  }
  get byteLength(): number {
    return this.length * 4;
  }
  delete(): void {
    try { this.tmp.shrank(statSync(this.path).size); } catch { /* already gone */ }
    rmSync(this.path, { force: true });
  }
  private flush(): void {
    if (this.n === 0) return;
    const bytes = new Uint8Array(this.buf.buffer, 0, this.n * 4);
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off);
    this.tmp.grew(bytes.length);
    this.n = 0;
  }
}

/** A column nobody will read (navigation points of a build without street geometry). */
export class NullColumn {
  length = 0;
  push(_v: number): void { this.length++; }
  finish(): void { /* nothing kept */ }
}

/** The same interface kept in memory (small builds, tests): no temporary files. */
export class MemoryColumn {
  private readonly g: { a: Int32Array | Uint32Array; n: number };
  constructor(signed: boolean) {
    this.g = { a: signed ? new Int32Array(1024) : new Uint32Array(1024), n: 0 };
  }
  get length(): number {
    return this.g.n;
  }
  push(v: number): void {
    if (this.g.n === this.g.a.length) {
      const b = new (this.g.a.constructor as Int32ArrayConstructor)(this.g.a.length * 2);
      b.set(this.g.a);
      this.g.a = b;
    }
    this.g.a[this.g.n++] = v;
  }
  finish(): void { /* nothing to flush */ }
  array(): Int32Array | Uint32Array {
    return this.g.a.subarray(0, this.g.n);
  }
}
