/**
 * A top-level JSON array → batches of raw element texts, without building the elements.
 *
 * It scans characters once, tracking only nesting depth and string state, and cuts the array at
 * its top-level commas. Each element's text is parsed later, in a worker. A malformed element
 * therefore costs only its own slot (the worker reports it), not the rest of the file: a depth-1
 * comma or the closing bracket ends it. Text outside the array is reported as an error record.
 * Equivalence with stream-json on valid input is fuzz-tested (test/adapters/file).
 */
import { BatchBuilder, type RawBatch } from './raw-batch.ts';


const QUOTE = 34, BACKSLASH = 92, LBRACKET = 91, RBRACKET = 93, LBRACE = 123, RBRACE = 125, COMMA = 44;

export async function* readJsonArrayBatches(
  chunks: AsyncIterable<string>,
  batchSize: number,
): AsyncGenerator<RawBatch> {
  const batch = new BatchBuilder(batchSize);
  let state: 'before' | 'inside' | 'after' = 'before';
  let depth = 0; // nesting depth inside the current element
  let inString = false;
  let escaped = false;
  let element = 1;
  let pieces: string[] = []; // text of the current element across chunk boundaries
  let trailing = '';

  const finish = (text: string): boolean => {
    const t = text.trim();
    if (t.length === 0) return false; // `[]`, or whitespace before `]`
    const full = batch.push(t, element);
    element++;
    return full;
  };

  for await (const chunk of chunks) {
    let i = 0;
    const n = chunk.length;
    if (state === 'before') {
      while (i < n && isSpace(chunk.charCodeAt(i))) i++;
      if (i === n) continue;
      if (chunk.charCodeAt(i) !== LBRACKET) {
        batch.pushError('The input is not a JSON array: it must start with [.', 1);
        yield batch.take();
        return;
      }
      state = 'inside';
      i++;
    }
    if (state === 'after') {
      trailing += chunk;
      continue;
    }
    let start = i;
    for (; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
        continue;
      }
      if (c === QUOTE) inString = true;
      else if (c === LBRACE || c === LBRACKET) depth++;
      else if ((c === RBRACE || c === RBRACKET) && depth > 0) depth--;
      else if (depth === 0 && (c === COMMA || c === RBRACKET)) {
        pieces.push(chunk.slice(start, i));
        const full = finish(pieces.join(''));
        pieces = [];
        start = i + 1;
        if (c === RBRACKET) {
          state = 'after';
          trailing = chunk.slice(i + 1);
          if (full) yield batch.take();
          break;
        }
        if (full) yield batch.take();
      }
    }
    if (state === 'inside') pieces.push(chunk.slice(start));
  }
  if (state === 'inside') {
    // Unterminated array: the last element is handed on (if it is not a whole value the worker
    // reports it as invalid JSON in its slot), and the missing bracket gets a slot of its own.
    finish(pieces.join(''));
    batch.pushError(`Element ${element}: the input ended before the array's closing ].`, element);
  } else if (state === 'after' && trailing.trim().length > 0) {
    batch.pushError(`Element ${element}: text after the array's closing ] ('${trailing.trim().slice(0, 20)}…').`, element);
  }
  if (batch.length) yield batch.take();
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 0xfeff;
}
