/**
 * A batch's output text, written as UTF-8 bytes row by row in the worker, into a buffer the batch
 * owns, so that it crosses back to the main thread transferred (moved, not copied) and is written
 * there as it is: the main thread neither copies nor encodes a row.
 *
 * Encoding each row as it is rendered is cheaper than concatenating the batch into one string
 * and encoding that: a batch string of a thousand rows is a rope of thousands of pieces, flattened
 * (copied, as two-byte text as soon as one row holds a character past U+00FF) before it can be
 * encoded, and then copied once more when it is cloned to the main thread.
 */

/** Bytes one UTF-16 code unit can take in UTF-8, at most (a lone surrogate becomes U+FFFD). */
const MAX_BYTES_PER_UNIT = 3;

export class Utf8Out {
  private buf: Buffer;
  private used = 0;

  /** `capacity`: the expected size (a previous batch's), to avoid growing. */
  constructor(capacity = 1 << 16) {
    this.buf = ownedBuffer(Math.max(capacity, 1024));
  }

  /**
   * Appends `text` encoded as UTF-8, then `lineEnd` (ASCII: '\n' or '\r\n'), stored byte by byte
   * rather than concatenated to the text (which would make the text a rope to flatten first).
   */
  addLine(text: string, lineEnd: string): void {
    const needed = text.length * MAX_BYTES_PER_UNIT + lineEnd.length;
    if (this.buf.length - this.used < needed) this.grow(needed);
    let at = this.used + this.buf.write(text, this.used);
    for (let k = 0; k < lineEnd.length; k++) this.buf[at++] = lineEnd.charCodeAt(k);
    this.used = at;
  }

  get length(): number {
    return this.used;
  }

  /**
   * The bytes written, as a view over a buffer of their own (transferable: no other view shares
   * it). The builder must not be used after.
   */
  take(): Uint8Array {
    return new Uint8Array(this.buf.buffer, this.buf.byteOffset, this.used);
  }

  private grow(needed: number): void {
    const next = ownedBuffer(Math.max(this.buf.length * 2, this.used + needed));
    this.buf.copy(next, 0, 0, this.used);
    this.buf = next;
  }
}

/** A Buffer over an ArrayBuffer of its own (never a slice of Node's shared pool). */
function ownedBuffer(size: number): Buffer {
  return Buffer.allocUnsafeSlow(size);
}
