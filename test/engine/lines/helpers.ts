import type { LinesRecord } from '../../../src/contract/records.ts';

/** The non-empty lines of a record, in order. */
export function linesOf(r: LinesRecord): string[] {
  return [r.addressline1, r.addressline2, r.addressline3, r.addressline4, r.addressline5, r.addressline6].filter(
    (l) => l !== '',
  );
}
