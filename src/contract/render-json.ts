/**
 * JSON rendering of records and errors for line-oriented outputs (NDJSON files, Kafka JSON
 * values). The optional `id` of the request element is echoed as the first key.
 */
import type { ErrorBody } from './errors.ts';

/** Keys of `id` echo: any JSON value the caller gave, kept as given. */
export function renderWithId(id: unknown, body: object): string {
  const json = JSON.stringify(body);
  if (id === undefined) return json;
  // Same text as JSON.stringify({ id, ...body }) without building the merged object (hot path).
  const idJson = JSON.stringify(id);
  if (idJson === undefined) return json; // a function or symbol id is not JSON: nothing to echo
  return json.length > 2 ? `{"id":${idJson},${json.slice(1)}` : `{"id":${idJson}}`;
}

export function renderError(id: unknown, error: ErrorBody): string {
  return renderWithId(id, error);
}
