/**
 * NDJSON → batches of raw line texts. Blank lines are skipped (they are not records) but still
 * counted, so positions are the file's real line numbers. Memory is one chunk plus one batch.
 */
import { BatchBuilder, type RawBatch } from './raw-batch.ts';

export async function* readNdjsonBatches(
  chunks: AsyncIterable<string>,
  batchSize: number,
): AsyncGenerator<RawBatch> {
  const batch = new BatchBuilder(batchSize);
  let carry = '';
  let line = 0;
  for await (const chunk of chunks) {
    let text = carry.length ? carry + chunk : chunk;
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf('\n', start)) !== -1) {
      line++;
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      if (!isBlank(text, start, end) && batch.push(text.slice(start, end), line)) yield batch.take();
      start = nl + 1;
    }
    carry = start < text.length ? text.slice(start) : '';
    text = '';
  }
  if (carry.length) {
    line++;
    const end = carry.charCodeAt(carry.length - 1) === 13 ? carry.length - 1 : carry.length;
    if (!isBlank(carry, 0, end)) batch.push(carry.slice(0, end), line);
  }
  if (batch.length) yield batch.take();
}

function isBlank(s: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 0xfeff) return false;
  }
  return true;
}
