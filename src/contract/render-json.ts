/**
 * JSON rendering of records and errors for line-oriented outputs (NDJSON files, Kafka JSON
 * values). The optional `id` of the request element is echoed as the first key.
 */
import type { ErrorBody } from './errors.ts';

/** Keys of `id` echo: any JSON value the caller gave, kept as given. */
export function renderWithId(id: unknown, body: object): string {
  if (id === undefined) return JSON.stringify(body);
  return JSON.stringify({ id, ...body });
}

export function renderError(id: unknown, error: ErrorBody): string {
  return renderWithId(id, error);
}
