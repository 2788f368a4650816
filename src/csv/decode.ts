/**
 * Text encodings of CSV input. UTF-8 (with or without a byte-order mark) is checked: a record
 * that is not valid UTF-8 is reported, not guessed at. Windows-1252 is what Excel and most
 * European CRMs write as "ANSI"; Latin-1 here is ISO-8859-1 proper (bytes 0x80–0x9F are C1
 * controls, not the Windows-1252 letters; note that the WHATWG `latin1` label means
 * Windows-1252, which is why it is decoded by Node's own latin1 instead). Output is always UTF-8.
 */
import { isUtf8 } from 'node:buffer';

export const ENCODINGS = ['utf-8', 'windows-1252', 'latin1'] as const;
export type CsvEncoding = (typeof ENCODINGS)[number];

export function parseEncodingOption(v: string): CsvEncoding | undefined {
  const s = v.toLowerCase().replace(/_/g, '-');
  if (s === 'utf-8' || s === 'utf8') return 'utf-8';
  if (s === 'windows-1252' || s === 'cp1252' || s === 'win1252') return 'windows-1252';
  if (s === 'latin1' || s === 'latin-1' || s === 'iso-8859-1') return 'latin1';
  return undefined;
}

let cp1252: InstanceType<typeof TextDecoder> | undefined;

export interface Decoded {
  text: string;
  /** UTF-8 mode only: the bytes were not valid UTF-8 (the text has U+FFFD in their place). */
  invalid: boolean;
}

/** Decodes buf[start, end) in the given encoding. */
export function decodeBytes(buf: Buffer, start: number, end: number, encoding: CsvEncoding): Decoded {
  if (encoding === 'utf-8') {
    const invalid = !isUtf8(buf.subarray(start, end));
    return { text: buf.toString('utf8', start, end), invalid };
  }
  if (encoding === 'latin1') return { text: buf.toString('latin1', start, end), invalid: false };
  cp1252 ??= new TextDecoder('windows-1252');
  return { text: cp1252.decode(buf.subarray(start, end)), invalid: false };
}

/** Length of a UTF-8 byte-order mark at the start of b (0 or 3). */
export function bomLength(b: Uint8Array): number {
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
}
