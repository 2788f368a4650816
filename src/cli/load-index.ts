/**
 * Loads the address index a command needs: none for `lines`; for `search` the index directory
 * given, or the embedded default (the default layer: GeoNames places and postcodes of the 34
 * destinations), built on first use: the command says so on stderr, so that the several seconds
 * of a first run are not silent.
 */
import { relative } from 'node:path';
import type { Op } from '../contract/params.ts';

export async function loadIndexForOp(op: Op, dir: string | undefined): Promise<SharedArrayBuffer | undefined> {
  if (op !== 'search') return undefined;
  const { loadIndexFile, loadDefaultIndex } = await import('../data/index-file.ts');
  if (dir) return loadIndexFile(dir);
  return loadDefaultIndex((into) => {
    process.stderr.write(`addrflow: building the embedded default index on first use (a few seconds, once: later runs read ${relative(process.cwd(), into) || into})\n`);
  });
}
