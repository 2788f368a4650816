/**
 * UTF-16 input (Excel's "Unicode Text" is UTF-16 LE with a byte-order mark, tab-separated)
 * transcoded to UTF-8 as a stream, before anything looks for line ends or quotes: the splitter
 * and every later step then see UTF-8 only, and the output is UTF-8. A byte-order mark
 * (FF FE little-endian, FE FF big-endian) is recognised on its own; `--encoding utf-16le` or
 * `utf-16be` reads input without one. The decoder keeps an odd last byte and the first half of a
 * surrogate pair for the next chunk, so chunks may be cut anywhere; an unpaired surrogate becomes
 * U+FFFD (the row then reads with that character, as any decoder would show it).
 */
import { peekStream } from './peek.ts';

export type Utf16 = 'utf-16le' | 'utf-16be';

/** The UTF-16 form a byte-order mark at the start of b names, if any. */
export function utf16Bom(b: Uint8Array): Utf16 | undefined {
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * The chunks of `source` as UTF-8: transcoded when `given` is a UTF-16 form or when the input
 * starts with a UTF-16 byte-order mark (the mark wins: it says how the bytes are to be read),
 * else passed through untouched. `form` says which UTF-16 form was read, if any, so the caller
 * knows that the bytes it gets are UTF-8. Reads the first chunk(s) before it answers.
 */
export async function utf16ToUtf8(source: AsyncIterable<Uint8Array>, given: Utf16 | undefined): Promise<{ form: Utf16 | undefined; chunks: AsyncGenerator<Uint8Array> }> {
  const { head, all } = await peekStream(source, 2);
  const form = utf16Bom(head) ?? given;
  return { form, chunks: form ? transcoded(all(), form) : all() };
}

async function* transcoded(chunks: AsyncIterable<Uint8Array>, form: Utf16): AsyncGenerator<Uint8Array> {
  // The decoder drops a byte-order mark of its own form at the start (ignoreBOM is false).
  const decoder = new TextDecoder(form);
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield Buffer.from(text, 'utf8');
  }
  const tail = decoder.decode();
  if (tail) yield Buffer.from(tail, 'utf8');
}
