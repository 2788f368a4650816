/** Byte tests shared by the file readers (UTF-8 input, never decoded on the main thread). */

/** JSON white space: space, tab, line feed, carriage return. */
export function isJsonSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** A UTF-8 byte-order mark (EF BB BF) starts at b[i]. */
export function isBomAt(b: Uint8Array, i: number): boolean {
  return b[i] === 0xef && b[i + 1] === 0xbb && b[i + 2] === 0xbf;
}
