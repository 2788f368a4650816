/**
 * The symmetric-delete keys of a token (edit distance 1), as the index stores them: FNV-1a hashes
 * of the UTF-8 bytes of the token itself and of each text with one UTF-16 code unit deleted, each
 * distinct key once, in that order; none for a token shorter than FUZZY_MIN_LEN code units or of
 * ASCII digits only.
 *
 * `deleteKeysOfText` is the definition. `deleteKeyHashes` gives the same hashes from the interned
 * bytes without decoding or building the keys: for a token of Basic Multilingual Plane characters
 * a code unit is a character, deleting it deletes its bytes, and two deletions give the same key
 * exactly when the characters between them are all alike (a run: `ll` in `walle`), so each run
 * counts once. Other tokens (a character beyond U+FFFF, over 1 kB) take the definition.
 * test/data/build/delete-keys.test.ts compares the two.
 */
import { fnv1a } from '../../engine/index/format.ts';

export const FUZZY_MIN_LEN = 4;

const MAX_BYTES = 1024;
const enc = new TextEncoder();
const dec = new TextDecoder();
const buf = new Uint8Array(MAX_BYTES);
const keys = new Set<string>();
const starts = new Int32Array(MAX_BYTES + 1);
const prefix = new Int32Array(MAX_BYTES + 1);

/** The definition: the keys of `text`, hashed; appended to `out`; returns how many. */
export function deleteKeysOfText(text: string, out: { push(h: number): unknown }): number {
  if (text.length < FUZZY_MIN_LEN || /^\d+$/.test(text)) return 0;
  keys.clear();
  keys.add(text);
  for (let k = 0; k < text.length; k++) keys.add(text.slice(0, k) + text.slice(k + 1));
  for (const key of keys) {
    const w = enc.encodeInto(key, buf).written;
    out.push(fnv1a(buf, 0, w));
  }
  return keys.size;
}

/** The keys of the token whose UTF-8 bytes are `bytes`, hashed; appended to `out`; returns how many. */
export function deleteKeyHashes(bytes: Uint8Array, out: { push(h: number): unknown }): number {
  const n = bytes.length;
  if (n > MAX_BYTES) return deleteKeysOfText(dec.decode(bytes), out);
  let units = 0, digits = true;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b >= 0xf0) return deleteKeysOfText(dec.decode(bytes), out); // a surrogate pair in UTF-16
    if ((b & 0xc0) !== 0x80) starts[units++] = i;
    if (b < 0x30 || b > 0x39) digits = false;
  }
  starts[units] = n;
  if (units < FUZZY_MIN_LEN || digits) return 0;
  let h = 0x811c9dc5 | 0;
  prefix[0] = h;
  for (let i = 0; i < n; i++) { h = Math.imul(h ^ bytes[i]!, 0x01000193); prefix[i + 1] = h; }
  out.push(h >>> 0);
  let count = 1;
  for (let k = 0; k < units; k++) {
    const s = starts[k]!, e = starts[k + 1]!;
    if (k > 0 && sameChar(bytes, starts[k - 1]!, s, e)) continue; // the run's first deletion gave this key
    let g = prefix[s]!;
    for (let i = e; i < n; i++) g = Math.imul(g ^ bytes[i]!, 0x01000193);
    out.push(g >>> 0);
    count++;
  }
  return count;
}

/** Whether the character at [p, s) equals the one at [s, e). */
function sameChar(bytes: Uint8Array, p: number, s: number, e: number): boolean {
  if (s - p !== e - s) return false;
  for (let i = 0; i < e - s; i++) if (bytes[p + i] !== bytes[s + i]) return false;
  return true;
}
