/**
 * XML rendering of records, batches and errors (spec README, item 2).
 *
 * - a single record: `<response>` with one child per key, in the order of the object given
 *   (callers pass records in the spec's key order, see adapters/http/render.ts);
 * - a batch: `<responses>` with one `<response>` per element; an element that failed holds
 *   `<errorcode>` and `<errormessage>`, the same keys as its JSON slot;
 * - an error: `<error><errorcode>…</errorcode><errormessage>…</errormessage></error>`.
 *
 * Text is escaped (`& < > " '`), and `\r` is written as `&#13;` so that a parser's line-end
 * normalisation cannot turn it into `\n`. Characters XML 1.0 cannot carry at all (C0 controls other
 * than tab/LF/CR, lone surrogates, U+FFFE/U+FFFF) are replaced by U+FFFD, so the document is
 * always well-formed.
 */
import type { ErrorBody } from './errors.ts';

export const XML_CONTENT_TYPE = 'application/xml; charset=UTF-8';
const DECL = '<?xml version="1.0" encoding="UTF-8"?>';

// Not allowed in XML 1.0 documents: C0 controls except \t \n \r, lone surrogates, U+FFFE, U+FFFF.
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;
const SPECIAL = /[&<>"'\r]/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' };

/** Escapes a value for XML text content. */
export function xmlText(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return s.replace(FORBIDDEN, '\uFFFD').replace(SPECIAL, (c) => ENTITY[c]!);
}

function children(obj: object): string {
  let out = '';
  for (const [k, v] of Object.entries(obj)) out += `<${k}>${xmlText(v)}</${k}>`;
  return out;
}

/** One record (or a batch slot's error object) as `<response>…</response>`, without declaration. */
export function xmlResponseElement(obj: object): string {
  return `<response>${children(obj)}</response>`;
}

export function renderXmlRecord(obj: object): string {
  return DECL + xmlResponseElement(obj);
}

export function renderXmlBatch(items: readonly object[]): string {
  let out = DECL + '<responses>';
  for (const it of items) out += xmlResponseElement(it);
  return out + '</responses>';
}

export function renderXmlError(body: ErrorBody): string {
  return `${DECL}<error><errorcode>${body.errorcode}</errorcode><errormessage>${xmlText(body.errormessage)}</errormessage></error>`;
}
