/**
 * Opens a job's input as a stream of UTF-8 text chunks and tells NDJSON from a JSON array by the
 * first character that is not white space (a byte-order mark is skipped).
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { InputFormat } from './raw-batch.ts';

const CHUNK = 1 << 20;

export function openInput(path: string): Readable {
  const stream = path === '-' ? process.stdin : createReadStream(path, { highWaterMark: CHUNK });
  stream.setEncoding('utf8');
  return stream;
}

export interface DetectedInput {
  format: InputFormat;
  chunks: AsyncIterable<string>;
}

/** Reads until the first significant character, then hands back every chunk, the first included. */
export async function detectFormat(source: AsyncIterable<string>): Promise<DetectedInput> {
  const it = source[Symbol.asyncIterator]();
  const peeked: string[] = [];
  let format: InputFormat = 'ndjson';
  for (;;) {
    const r = await it.next();
    if (r.done) break;
    peeked.push(r.value);
    const m = /[^\s\uFEFF]/.exec(r.value);
    if (m) {
      format = m[0] === '[' ? 'array' : 'ndjson';
      break;
    }
  }
  async function* chunks(): AsyncGenerator<string> {
    yield* peeked;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  return { format, chunks: chunks() };
}
