/**
 * NDJSON bytes → batches of raw records. Lines are found with a native byte search; blank lines
 * are skipped (they are not records) but still counted, so positions are the file's real line
 * numbers. Memory is one chunk plus one batch.
 */
import { BatchBuilder, MAX_RECORD_BYTES, tooLongMessage, type RawBatch } from './raw-batch.ts';
import { isBomAt, isJsonSpace } from './bytes.ts';

const NL = 10, CR = 13;

export async function* readNdjsonBatches(
  chunks: AsyncIterable<Uint8Array>,
  batchSize: number,
  maxRecordBytes = MAX_RECORD_BYTES,
): AsyncGenerator<RawBatch> {
  const batch = new BatchBuilder(batchSize);
  let carry: Uint8Array | undefined;
  let skipping = false; // inside a line longer than the limit: its bytes are dropped, not kept
  let line = 0;
  const tooLong = (): boolean => batch.pushError(tooLongMessage('Line', line, maxRecordBytes), line);
  for await (const chunk of chunks) {
    const buf = carry ? Buffer.concat([carry, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    carry = undefined;
    let start = 0;
    let nl: number;
    while ((nl = buf.indexOf(NL, start)) !== -1) {
      line++;
      const end = nl > start && buf[nl - 1] === CR ? nl - 1 : nl;
      let full = false;
      if (skipping || end - start > maxRecordBytes) full = tooLong();
      else if (!isBlank(buf, start, end)) full = batch.push(buf, start, end, line);
      skipping = false;
      if (full) yield batch.take();
      start = nl + 1;
    }
    if (start < buf.length && !skipping) {
      if (buf.length - start > maxRecordBytes) skipping = true;
      else carry = Uint8Array.prototype.slice.call(buf, start); // a copy: the stream may reuse its chunk
    }
  }
  if (skipping) {
    line++;
    tooLong();
  } else if (carry) {
    line++;
    const end = carry[carry.length - 1] === CR ? carry.length - 1 : carry.length;
    if (!isBlank(carry, 0, end)) batch.push(carry, 0, end, line);
  }
  if (batch.length) yield batch.take();
}

/** White space and a UTF-8 byte-order mark only. */
function isBlank(s: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    if (isJsonSpace(s[i]!)) continue;
    if (isBomAt(s, i)) {
      i += 2;
      continue;
    }
    return false;
  }
  return true;
}
