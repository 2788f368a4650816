/**
 * Response bodies of the HTTP adapter: records in the spec's key order, the optional `requestid`
 * and `availablecredits` keys (spec README item 1), JSON or XML (item 2); with `explain=1`, the
 * answer's explanation last (`explain`, an `<explain>` element in XML).
 */
import type { ErrorBody } from '../../contract/errors.ts';
import { EXPLAIN_KEY } from '../../contract/explain.ts';
import type { Op } from '../../contract/params.ts';
import { AVAILABLE_CREDITS_KEY, RECORD_KEYS, REQUEST_ID_KEY } from '../../contract/records.ts';
import { renderXmlBatch, renderXmlError, renderXmlRecord, XML_CONTENT_TYPE } from '../../contract/render-xml.ts';

export type Format = 'json' | 'xml';
export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';

export interface Extras {
  requestid?: string;
  availablecredits?: string;
}

/** A record with every key of its operation, in spec order, then the requested extras. */
export function orderedRecord(op: Op, record: object, extras: Extras): Record<string, unknown> {
  const src = record as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of RECORD_KEYS[op]) out[k] = src[k] ?? '';
  if (extras.requestid !== undefined) out[REQUEST_ID_KEY] = extras.requestid;
  if (extras.availablecredits !== undefined) out[AVAILABLE_CREDITS_KEY] = extras.availablecredits;
  // explain=1 (an extension): the explanation last, after the spec's keys and extras
  if (src[EXPLAIN_KEY] !== undefined) out[EXPLAIN_KEY] = src[EXPLAIN_KEY];
  return out;
}

export interface Rendered {
  contentType: string;
  body: string;
}

export function renderRecord(format: Format, record: object): Rendered {
  return format === 'xml'
    ? { contentType: XML_CONTENT_TYPE, body: renderXmlRecord(record) }
    : { contentType: JSON_CONTENT_TYPE, body: JSON.stringify(record) };
}

export function renderBatch(format: Format, items: readonly object[]): Rendered {
  return format === 'xml'
    ? { contentType: XML_CONTENT_TYPE, body: renderXmlBatch(items) }
    : { contentType: JSON_CONTENT_TYPE, body: JSON.stringify(items) };
}

export function renderErrorBody(format: Format, error: ErrorBody): Rendered {
  return format === 'xml'
    ? { contentType: XML_CONTENT_TYPE, body: renderXmlError(error) }
    : { contentType: JSON_CONTENT_TYPE, body: JSON.stringify({ errorcode: error.errorcode, errormessage: error.errormessage }) };
}
