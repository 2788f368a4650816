/**
 * The address rows' columns, in document order: spilled to the temporary directory as they are
 * produced when there is one (large builds), else kept in memory. Without street lines the two
 * navigation columns are discarded as they come.
 */
import type { Section } from './index-writer.ts';
import { MemoryColumn, NullColumn, SpillColumn, type TempDir } from './spill.ts';

export type AddressColumn = SpillColumn | MemoryColumn | NullColumn;

export interface AddressColumns {
  addrHnTok: AddressColumn; addrHn: AddressColumn; addrLat: AddressColumn; addrLon: AddressColumn;
  addrNavLat: AddressColumn; addrNavLon: AddressColumn; addrPostcode: AddressColumn; addrAdmin: AddressColumn;
}

export function addressColumns(tmp: TempDir | undefined, hasLines: boolean): AddressColumns {
  const col = (name: string, signed: boolean) => (tmp ? new SpillColumn(tmp, name, signed) : new MemoryColumn(signed));
  const navCol = (name: string) => (hasLines ? col(name, true) : new NullColumn());
  return {
    addrHnTok: col('addrHnTok', false), addrHn: col('addrHn', false), addrLat: col('addrLat', true), addrLon: col('addrLon', true),
    addrNavLat: navCol('addrNavLat'), addrNavLon: navCol('addrNavLon'), addrPostcode: col('addrPostcode', false), addrAdmin: col('addrAdmin', false),
  };
}

/** A column as an index section: a spilled file (remapped as it is copied), an array, or empty. */
export function addressSection(c: AddressColumn, remap?: Uint32Array, empty = false): Section {
  if (empty) return { array: new Int32Array(0) };
  if (c instanceof SpillColumn) return { file: c.path, length: c.length, remap };
  if (c instanceof NullColumn) throw new Error('a discarded column cannot be written');
  const arr = c.array();
  if (remap) for (let i = 0; i < arr.length; i++) arr[i] = remap[arr[i]!]!;
  return { array: arr };
}
