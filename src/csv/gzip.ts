/**
 * Gzip input, recognised by its magic bytes (1F 8B) rather than trusted to a file name, and
 * decompressed as a stream; concatenated members (what `gzip -c a b`, and addrflow's own
 * resumable output, write) are read as one stream.
 */
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

export function isGzip(b: Uint8Array): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

/** The chunks of `source`, decompressed when it starts with the gzip magic. */
export async function* gunzipIfGzip(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  const peeked: Uint8Array[] = [];
  let seen = 0;
  let done = false;
  while (seen < 2) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    peeked.push(r.value);
    seen += r.value.length;
  }
  const head = peeked.length === 1 ? peeked[0]! : Buffer.concat(peeked);
  async function* rest(): AsyncGenerator<Uint8Array> {
    yield* peeked;
    if (done) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  if (!isGzip(head)) {
    yield* rest();
    return;
  }
  const gunzip = Readable.from(rest(), { objectMode: false }).pipe(createGunzip({ chunkSize: 1 << 16 }));
  for await (const chunk of gunzip) yield chunk as Buffer;
}
