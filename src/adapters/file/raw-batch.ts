/**
 * A batch of raw records as read from a file: the records' UTF-8 bytes back to back in one
 * buffer of its own (so it can be transferred to a worker thread without a copy), the byte range
 * of each record, and where each came from. The main thread never decodes or parses a record.
 */
export interface RawBatch {
  /** The records' bytes; `bytes.buffer` belongs to this batch alone (transferable). */
  bytes: Uint8Array;
  /** Record i is bytes[bounds[2i], bounds[2i+1]). */
  bounds: Uint32Array;
  /** 1-based line number (NDJSON), element number (JSON array) or record number (CSV, after the header). */
  positions: number[];
  /** Slots the reader itself could not make a record of: [index in batch, message]. */
  readerErrors?: Array<[number, string]>;
}

export type InputFormat = 'ndjson' | 'array' | 'csv';

/**
 * The largest record a reader accepts. A valid request element is a few KiB at most (14
 * parameters of ≤ 255 characters); anything longer is reported in its slot and skipped without
 * being held in memory, so one runaway line cannot exhaust the process.
 */
export const MAX_RECORD_BYTES = 1 << 20;

export function tooLongMessage(label: 'Line' | 'Element', position: number, max: number): string {
  return `${label} ${position}: longer than ${max} bytes; not read (a request element is a few KiB at most).`;
}

export function batchLength(b: RawBatch): number {
  return b.positions.length;
}

/** The records [from, to) of a batch, as a batch of their own. */
export function sliceBatch(b: RawBatch, from: number, to: number): RawBatch {
  const start = b.bounds[2 * from] ?? 0;
  const end = to > from ? b.bounds[2 * to - 1]! : start;
  const bytes = new Uint8Array(end - start);
  bytes.set(b.bytes.subarray(start, end));
  const bounds = new Uint32Array(2 * (to - from));
  for (let i = 0; i < bounds.length; i++) bounds[i] = b.bounds[2 * from + i]! - start;
  const out: RawBatch = { bytes, bounds, positions: b.positions.slice(from, to) };
  const errs = b.readerErrors?.filter(([i]) => i >= from && i < to).map(([i, m]): [number, string] => [i - from, m]);
  if (errs?.length) out.readerErrors = errs;
  return out;
}

/** Collects records into batches of `size`; `push` answers true when the batch is full. */
export class BatchBuilder {
  readonly size: number;
  private bytes: Uint8Array;
  private used = 0;
  private bounds: Uint32Array;
  private positions: number[] = [];
  private readerErrors: Array<[number, string]> | undefined;

  constructor(size: number, initialBytes = 1 << 16) {
    this.size = size;
    this.bytes = new Uint8Array(initialBytes);
    this.bounds = new Uint32Array(2 * size);
  }

  /** Appends the bytes src[start, end) as one record. */
  push(src: Uint8Array, start: number, end: number, position: number): boolean {
    const n = end - start;
    if (this.used + n > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + n));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    this.bytes.set(src.subarray(start, end), this.used);
    const i = this.positions.length;
    this.bounds[2 * i] = this.used;
    this.used += n;
    this.bounds[2 * i + 1] = this.used;
    this.positions.push(position);
    return this.positions.length >= this.size;
  }

  /** A slot for something the reader found that is not a record: reported there, the job goes on. */
  pushError(message: string, position: number): boolean {
    (this.readerErrors ??= []).push([this.positions.length, message]);
    return this.push(EMPTY, 0, 0, position);
  }

  take(): RawBatch {
    const n = this.positions.length;
    // A right-sized copy that owns its buffer; the builder keeps its scratch space.
    const b: RawBatch = { bytes: this.bytes.slice(0, this.used), bounds: this.bounds.slice(0, 2 * n), positions: this.positions };
    if (this.readerErrors) b.readerErrors = this.readerErrors;
    this.used = 0;
    this.positions = [];
    this.readerErrors = undefined;
    return b;
  }

  get length(): number {
    return this.positions.length;
  }
}

const EMPTY = new Uint8Array(0);
