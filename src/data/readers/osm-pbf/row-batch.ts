/**
 * The rows one blob yields, in the order the reader hands them to the sink, plus its rejects per
 * reason. Built on a worker thread and sent back to the main thread (structured clone: the rows are
 * what the sink receives anyway).
 */
import type { AddressPoint, AdminArea, Place, StreetLine } from '../../source-types.ts';

export interface RowBatch {
  addresses: AddressPoint[];
  places: Place[];
  lines: StreetLine[];
  admins: AdminArea[];
  rejects: Record<string, number>;
}

export function emptyRows(): RowBatch {
  return { addresses: [], places: [], lines: [], admins: [], rejects: {} };
}

export function reject(rows: RowBatch, reason: string): void {
  rows.rejects[reason] = (rows.rejects[reason] ?? 0) + 1;
}

/** Adds an address point, or rejects it when the index could not file it under a street. */
export function addAddress(rows: RowBatch, a: AddressPoint): void {
  if (!a.street) reject(rows, 'address-without-street');
  else rows.addresses.push(a);
}
