/**
 * The first bytes of a byte stream, read before deciding how to read the rest (gzip magic, a
 * UTF-16 byte-order mark): `head` holds at least `n` bytes (fewer only when the stream is
 * shorter), and `all()` yields the whole stream again from its first byte, head included.
 */
export interface PeekedStream {
  head: Uint8Array;
  all(): AsyncGenerator<Uint8Array>;
}

export async function peekStream(source: AsyncIterable<Uint8Array>, n: number): Promise<PeekedStream> {
  const it = source[Symbol.asyncIterator]();
  const peeked: Uint8Array[] = [];
  let seen = 0;
  let done = false;
  while (seen < n) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    peeked.push(r.value);
    seen += r.value.length;
  }
  const head = peeked.length === 1 ? peeked[0]! : Buffer.concat(peeked);
  async function* all(): AsyncGenerator<Uint8Array> {
    if (head.length) yield head;
    if (done) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  return { head, all };
}
