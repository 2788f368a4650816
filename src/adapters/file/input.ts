/**
 * Opens a job's input as a stream of byte chunks and tells NDJSON from a JSON array by the first
 * byte that is not white space (a UTF-8 byte-order mark is skipped). Nothing is decoded here.
 */
import { accessSync, constants, createReadStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { InputFormat } from './raw-batch.ts';
import { isBomAt, isJsonSpace } from './bytes.ts';

const CHUNK = 1 << 20;

/** An input that cannot be read, said in one line (no stack trace reaches the user). */
export class InputError extends Error {
  constructor(path: string, cause: NodeJS.ErrnoException | string) {
    const why = typeof cause === 'string' ? cause
      : cause.code === 'ENOENT' ? 'no such file'
      : cause.code === 'EACCES' || cause.code === 'EPERM' ? 'permission denied'
      : cause.code === 'EISDIR' ? 'it is a directory'
      : cause.message;
    super(`cannot read --input ${path}: ${why}${typeof cause !== 'string' && cause.code ? ` (${cause.code})` : ''}`);
    this.name = 'InputError';
  }
}

/** Checks that `path` is a readable file (or FIFO) before a job opens its outputs. */
export function checkInput(path: string): void {
  if (path === '-') return;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new InputError(path, 'it is a directory');
    accessSync(path, constants.R_OK);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(path, err as NodeJS.ErrnoException);
  }
}

/** A read error of the job's input, as an InputError; anything else is left as it is. */
export function asInputError(path: string, err: unknown): unknown {
  const e = err as NodeJS.ErrnoException;
  if (path !== '-' && e && typeof e === 'object' && typeof e.code === 'string' && e.path === path) return new InputError(path, e);
  // A gzip input cut short or damaged mid-way (zlib's Z_BUF_ERROR, Z_DATA_ERROR) cannot be read
  // on either: exit 8 with what was done, not an uncaught exception.
  if (e && typeof e === 'object' && typeof e.code === 'string' && /^Z_[A-Z_]+$/.test(e.code)) {
    return new InputError(path === '-' ? 'stdin' : path, `gzip data damaged or cut short (${e.message})`);
  }
  return err;
}

export function openInput(path: string): Readable {
  return path === '-' ? process.stdin : createReadStream(path, { highWaterMark: CHUNK });
}

export interface DetectedInput {
  format: InputFormat;
  /** The first byte that is not white space or a byte-order mark (undefined: the input is blank). */
  first: number | undefined;
  chunks: AsyncIterable<Uint8Array>;
}

function firstSignificant(b: Uint8Array): number | undefined {
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (isJsonSpace(c)) continue;
    if (c === 0xef && i + 2 >= b.length) return undefined; // maybe a mark cut short: read on
    if (isBomAt(b, i)) {
      i += 2;
      continue;
    }
    return c;
  }
  return undefined;
}

/** Reads until the first significant byte, then hands back every chunk, the first included. */
export async function detectFormat(source: AsyncIterable<Uint8Array>): Promise<DetectedInput> {
  const it = source[Symbol.asyncIterator]();
  const peeked: Uint8Array[] = [];
  let format: InputFormat = 'ndjson';
  let first: number | undefined;
  for (;;) {
    const r = await it.next();
    if (r.done) break;
    peeked.push(r.value);
    // Look at everything peeked so far: a byte-order mark may straddle two chunks.
    const c = firstSignificant(peeked.length === 1 ? r.value : Buffer.concat(peeked));
    if (c !== undefined) {
      first = c;
      format = c === 0x5b /* [ */ ? 'array' : 'ndjson';
      break;
    }
  }
  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield* peeked;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  return { format, first, chunks: chunks() };
}
