/**
 * `application/x-www-form-urlencoded` bodies, UTF-8 only (spec: "The body is UTF-8 and URL
 * encoded"). Written on bytes rather than node:querystring because querystring silently turns
 * invalid UTF-8 into U+FFFD; here it is an error (412), as is a body with too many fields.
 *
 * - `+` is a space, `%XX` a byte; a `%` not followed by two hex digits is kept literally;
 * - a field without `=` has the empty value; empty pairs (`&&`) are skipped;
 * - a name given twice yields an array of its values (validation then answers 412);
 * - names are taken literally (`a[b]=1` is the field `a[b]`, no nesting);
 * - the result has no prototype, so `__proto__` or `constructor` are ordinary, unknown fields.
 */
import { isAscii } from 'node:buffer';

export type FormValue = string | string[];
export type FormFields = Record<string, FormValue>;

export const MAX_FORM_FIELDS = 1000;

export class FormError extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/**
 * The field `bytes[start, end)` decoded. A range without `%`, `+` or a non-ASCII byte is its own
 * decoding: a slice of `text` (the whole body as a string, when it is ASCII), else its bytes read
 * as they are.
 */
function decodeRange(bytes: Buffer, text: string | undefined, start: number, end: number, scratch: Uint8Array): string {
  let plain = true;
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if (c === 0x25 || c === 0x2b || c >= 0x80) {
      plain = false;
      break;
    }
  }
  if (plain) return text !== undefined ? text.slice(start, end) : bytes.toString('latin1', start, end);
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if (c === 0x2b) {
      scratch[n++] = 0x20;
    } else if (c === 0x25 && i + 2 < end && hexVal(bytes[i + 1]!) >= 0 && hexVal(bytes[i + 2]!) >= 0) {
      scratch[n++] = hexVal(bytes[i + 1]!) * 16 + hexVal(bytes[i + 2]!);
      i += 2;
    } else {
      scratch[n++] = c;
    }
  }
  try {
    return utf8.decode(scratch.subarray(0, n));
  } catch {
    throw new FormError('The request body is not valid UTF-8.');
  }
}

/**
 * The decoding buffer of bodies up to this size is one kept buffer (parseForm is synchronous and
 * each decoded field becomes a string at once): no byte buffer allocated per request.
 */
const KEPT_SCRATCH_BYTES = 64 * 1024;
const keptScratch = new Uint8Array(KEPT_SCRATCH_BYTES);

export function parseForm(buf: Uint8Array): FormFields {
  const out: FormFields = Object.create(null) as FormFields;
  const scratch = buf.length <= KEPT_SCRATCH_BYTES ? keptScratch : new Uint8Array(buf.length);
  // (the server's body is a Buffer; another Uint8Array is read through a view, not copied)
  const bytes = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  // an ASCII body (percent-encoding makes most so) is made a string once, and its plain fields
  // are slices of it (an ASCII character is one byte: the string's positions are the bytes')
  const text = isAscii(bytes) ? bytes.toString('latin1') : undefined;
  let fields = 0;
  let start = 0;
  const len = buf.length;
  while (start <= len) {
    let amp = buf.indexOf(0x26, start);
    if (amp === -1) amp = len;
    if (amp > start) {
      if (++fields > MAX_FORM_FIELDS) throw new FormError(`The request body has more than ${MAX_FORM_FIELDS} fields.`);
      let eq = start; // the first `=` of this pair only: never a scan past its `&`
      while (eq < amp && buf[eq] !== 0x3d) eq++;
      const name = decodeRange(bytes, text, start, eq, scratch);
      const value = eq < amp ? decodeRange(bytes, text, eq + 1, amp, scratch) : '';
      const prev = out[name];
      if (prev === undefined) out[name] = value;
      else if (Array.isArray(prev)) prev.push(value);
      else out[name] = [prev, value];
    }
    start = amp + 1;
  }
  return out;
}
