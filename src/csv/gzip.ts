/**
 * Gzip input, recognised by its magic bytes (1F 8B) rather than trusted to a file name, and
 * decompressed as a stream; concatenated members (what `gzip -c a b`, and addrflow's own
 * resumable output, write) are read as one stream.
 */
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { peekStream } from './peek.ts';

export function isGzip(b: Uint8Array): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

/** The chunks of `source`, decompressed when it starts with the gzip magic. */
export async function* gunzipIfGzip(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const { head, all } = await peekStream(source, 2);
  if (!isGzip(head)) {
    yield* all();
    return;
  }
  const gunzip = Readable.from(all(), { objectMode: false }).pipe(createGunzip({ chunkSize: 1 << 16 }));
  for await (const chunk of gunzip) yield chunk as Buffer;
}
