/**
 * Loads the address index a command needs: none for `lines`; for `search` the index directory
 * given, or the embedded default (the default layer: GeoNames places and postcodes of the 34
 * destinations).
 */
import type { Op } from '../contract/params.ts';

export async function loadIndexForOp(op: Op, dir: string | undefined): Promise<SharedArrayBuffer | undefined> {
  if (op !== 'search') return undefined;
  const { loadIndexFile, loadDefaultIndex } = await import('../data/index-file.ts');
  return dir ? loadIndexFile(dir) : loadDefaultIndex();
}
