/**
 * Text encodings of CSV input. UTF-8 (with or without a byte-order mark) is checked: a record
 * that is not valid UTF-8 is reported, not guessed at. Windows-1252 is what Excel and most
 * European CRMs write as "ANSI"; Latin-1 here is ISO-8859-1 proper (bytes 0x80–0x9F are C1
 * controls, not the Windows-1252 letters; note that the WHATWG `latin1` label means
 * Windows-1252, which is why it is decoded by Node's own latin1 instead). UTF-16 (LE or BE, given
 * or recognised by its byte-order mark) is transcoded to UTF-8 before the splitter (utf16.ts), so
 * its records reach this module as UTF-8. Output is always UTF-8.
 */
import { isUtf8 } from 'node:buffer';

export const ENCODINGS = ['utf-8', 'windows-1252', 'latin1', 'utf-16le', 'utf-16be'] as const;
export type CsvEncoding = (typeof ENCODINGS)[number];

export function parseEncodingOption(v: string): CsvEncoding | undefined {
  const s = v.toLowerCase().replace(/_/g, '-');
  if (s === 'utf-8' || s === 'utf8') return 'utf-8';
  if (s === 'windows-1252' || s === 'cp1252' || s === 'win1252') return 'windows-1252';
  if (s === 'latin1' || s === 'latin-1' || s === 'iso-8859-1') return 'latin1';
  if (s === 'utf-16le' || s === 'utf16le') return 'utf-16le';
  if (s === 'utf-16be' || s === 'utf16be') return 'utf-16be';
  return undefined;
}

let cp1252: InstanceType<typeof TextDecoder> | undefined;

export interface Decoded {
  text: string;
  /** UTF-8 mode only: the bytes were not valid UTF-8 (the text has U+FFFD in their place). */
  invalid: boolean;
}

/** The encoding of the bytes the splitter sees: UTF-16 input is transcoded to UTF-8 before it. */
export function byteEncoding(encoding: CsvEncoding): CsvEncoding {
  return encoding === 'utf-16le' || encoding === 'utf-16be' ? 'utf-8' : encoding;
}

/** Decodes buf[start, end) in the given encoding (UTF-16 forms: already transcoded, read as UTF-8). */
export function decodeBytes(buf: Buffer, start: number, end: number, encoding: CsvEncoding): Decoded {
  if (encoding === 'utf-8' || encoding === 'utf-16le' || encoding === 'utf-16be') {
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

/**
 * Read as UTF-8, the header row's bytes say the input is in another encoding: the hint names the
 * likely one and its `--encoding`, said once at the start instead of an error on every row.
 * NUL bytes are UTF-16 without a byte-order mark (a NUL after the first ASCII letter: little-
 * endian); bytes that are not UTF-8 are most often Windows-1252 (Excel's "CSV" on Windows).
 */
export function encodingHint(header: Uint8Array): string | undefined {
  const b = Buffer.from(header.buffer, header.byteOffset, header.byteLength);
  const nul = b.indexOf(0);
  if (nul !== -1) {
    const le = nul % 2 === 1;
    return `the header row has NUL bytes: the input looks like UTF-16 ${le ? 'LE' : 'BE'} without a byte-order mark; read it with --encoding ${le ? 'utf-16le' : 'utf-16be'}`;
  }
  if (!isUtf8(b)) return 'the header row is not valid UTF-8: the input is likely Windows-1252 (Excel\'s "CSV" on Windows) or Latin-1; read it with --encoding windows-1252 (or --encoding latin1)';
  return undefined;
}
