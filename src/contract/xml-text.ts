/**
 * Escaping of XML text and attribute values (render-xml.ts, explain.ts): `& < > " '` as entities,
 * `\r` as `&#13;` (so that a parser's line-end normalisation cannot turn it into `\n`), and the
 * characters XML 1.0 cannot carry at all replaced by U+FFFD.
 */

// Not allowed in XML 1.0 documents: C0 controls except \t \n \r, lone surrogates, U+FFFE, U+FFFF.
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;
const SPECIAL = /[&<>"'\r]/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' };

/** Escapes a value for XML text content. */
export function xmlText(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return s.replace(FORBIDDEN, '\uFFFD').replace(SPECIAL, (c) => ENTITY[c]!);
}
