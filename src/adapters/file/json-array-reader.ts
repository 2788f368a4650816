/**
 * A top-level JSON array (bytes) → batches of raw element records, without building elements.
 *
 * It scans the bytes once, tracking only nesting depth and string state, and cuts the array at
 * its top-level commas; the structural characters are ASCII, so UTF-8 needs no decoding here.
 * Each element is parsed later, in a worker. A malformed element therefore costs only its own
 * slot (the worker reports it), not the rest of the file: a depth-1 comma or the closing bracket
 * ends it. Text outside the array is reported in a slot of its own. Equivalence with stream-json
 * on valid input is fuzz-tested (test/adapters/file/readers.test.ts).
 */
import { BatchBuilder, MAX_RECORD_BYTES, tooLongMessage, type RawBatch } from './raw-batch.ts';
import { isBomAt, isJsonSpace } from './bytes.ts';

const QUOTE = 34, BACKSLASH = 92, LBRACKET = 91, RBRACKET = 93, LBRACE = 123, RBRACE = 125, COMMA = 44;

export async function* readJsonArrayBatches(
  chunks: AsyncIterable<Uint8Array>,
  batchSize: number,
  maxRecordBytes = MAX_RECORD_BYTES,
): AsyncGenerator<RawBatch> {
  const batch = new BatchBuilder(batchSize);
  let state: 'before' | 'inside' | 'after' = 'before';
  let depth = 0; // nesting depth inside the current element
  let inString = false;
  let escaped = false;
  let element = 1;
  let pieces: Uint8Array[] = []; // bytes of the current element across chunk boundaries
  let held = 0; // bytes in `pieces`
  let oversized = false; // the current element passed the limit: its bytes are dropped
  let trailing = '';
  let commas = 0; // top-level commas seen: `[]` has one empty slot that is not an element

  /** Keeps bytes of the current element, unless it has grown past the limit. */
  const keep = (bytes: Uint8Array): void => {
    if (oversized) return;
    held += bytes.length;
    if (held > maxRecordBytes) {
      oversized = true;
      pieces = [];
    } else pieces.push(bytes);
  };

  /**
   * Ends the current element: its trimmed bytes become a record. An empty slot (`[a,,b]`,
   * `[a,]`, `[,a]`) is an error in that slot, so the numbering never shifts; only the single
   * empty slot of `[]` is no element at all, and an array cut short reports its end itself.
   */
  const finish = (by: 'comma' | 'bracket' | 'eof'): boolean => {
    const closing = by !== 'comma';
    if (oversized) {
      oversized = false;
      held = 0;
      const full = batch.pushError(tooLongMessage('Element', element, maxRecordBytes), element);
      element++;
      return full;
    }
    const all = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
    pieces = [];
    held = 0;
    let s = 0;
    let e = all.length;
    while (s < e && isJsonSpace(all[s]!)) s++;
    while (e > s && isJsonSpace(all[e - 1]!)) e--;
    if (s === e) {
      if ((closing && commas === 0) || by === 'eof') return false;
      const where = closing ? 'after the last comma' : commas === 0 ? "before the first comma" : 'between two commas';
      const full = batch.pushError(`Element ${element}: empty (nothing ${where}).`, element);
      element++;
      return full;
    }
    const full = batch.push(all, s, e, element);
    element++;
    return full;
  };

  for await (const chunk of chunks) {
    let i = 0;
    const n = chunk.length;
    if (state === 'before') {
      while (i < n && (isJsonSpace(chunk[i]!) || isBomAt(chunk, i))) i += isBomAt(chunk, i) ? 3 : 1;
      if (i >= n) continue;
      if (chunk[i] !== LBRACKET) {
        batch.pushError('The input is not a JSON array: it must start with [.', 1);
        yield batch.take();
        return;
      }
      state = 'inside';
      i++;
    }
    if (state === 'after') {
      trailing += Buffer.from(chunk).toString('utf8', 0, Math.min(chunk.length, 64));
      continue;
    }
    let start = i;
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (; i < n; i++) {
      if (inString) {
        // Jump to the string's closing quote with a native search instead of a byte loop.
        if (escaped) {
          escaped = false; // the byte at i is escaped: it cannot close the string
          continue;
        }
        const q = findClosingQuote(buf, i);
        if (q < 0) {
          escaped = q === -2; // the chunk ends inside the string, after an odd run of backslashes
          i = n;
          break;
        }
        inString = false;
        i = q;
        continue;
      }
      const c = buf[i]!;
      if (c === QUOTE) inString = true;
      else if (c === LBRACE || c === LBRACKET) depth++;
      else if ((c === RBRACE || c === RBRACKET) && depth > 0) depth--;
      else if (depth === 0 && (c === COMMA || c === RBRACKET)) {
        keep(chunk.subarray(start, i));
        const full = finish(c === RBRACKET ? 'bracket' : 'comma');
        if (c === COMMA) commas++;
        start = i + 1;
        if (c === RBRACKET) {
          state = 'after';
          trailing = Buffer.from(chunk.subarray(i + 1, i + 65)).toString('utf8');
          if (full) yield batch.take();
          break;
        }
        if (full) yield batch.take();
      }
    }
    // a copy, as the stream may reuse its chunk (Buffer#slice would be a view: Uint8Array's copies)
    if (state === 'inside') keep(Uint8Array.prototype.slice.call(chunk, start));
  }
  if (state === 'inside') {
    // Unterminated array: the last element is handed on (if it is not a whole value the worker
    // reports it as invalid JSON in its slot), and the missing bracket gets a slot of its own.
    finish('eof');
    batch.pushError(`Element ${element}: the input ended before the array's closing ].`, element);
  } else if (state === 'after' && trailing.trim().length > 0) {
    batch.pushError(`Element ${element}: text after the array's closing ] ('${trailing.trim().slice(0, 20)}…').`, element);
  }
  if (batch.length) yield batch.take();
}

/**
 * Index of the quote that closes a string whose text starts at `from` (no escape pending there);
 * -1 when the chunk ends first, -2 when it ends first after an odd run of backslashes (so the
 * next chunk's first byte is escaped).
 */
function findClosingQuote(buf: Buffer, from: number): number {
  let at = from;
  for (;;) {
    const q = buf.indexOf(QUOTE, at);
    if (q === -1) return backslashRun(buf, from, buf.length) % 2 === 1 ? -2 : -1;
    if (backslashRun(buf, from, q) % 2 === 0) return q;
    at = q + 1; // an escaped quote: keep looking
  }
}

/** Backslashes immediately before `end`, not looking before `from`. */
function backslashRun(buf: Buffer, from: number, end: number): number {
  let k = end - 1;
  while (k >= from && buf[k] === BACKSLASH) k--;
  return end - 1 - k;
}
