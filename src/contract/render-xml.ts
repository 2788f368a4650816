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
import { EXPLAIN_KEY, explainXml, isExplanation } from './explain.ts';
import { xmlText } from './xml-text.ts';

export { xmlText };

export const XML_CONTENT_TYPE = 'application/xml; charset=UTF-8';
const DECL = '<?xml version="1.0" encoding="UTF-8"?>';

function children(obj: object): string {
  let out = '';
  for (const [k, v] of Object.entries(obj)) {
    // the opt-in explanation is an element of its own (explain.ts), not a text value
    if (k === EXPLAIN_KEY && isExplanation(v)) out += explainXml(v);
    else out += `<${k}>${xmlText(v)}</${k}>`;
  }
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
