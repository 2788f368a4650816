/**
 * A small in-memory index for engine tests: one source batch built by the project's own
 * IndexBuilder (no file, no default layer), opened as the lookup sees it.
 */
import { IndexBuilder } from '../../src/data/index-builder.ts';
import type { SourceBatch } from '../../src/data/source-types.ts';
import { openIndex, type AddressIndex } from '../../src/engine/index/index.ts';

export function indexOfBatch(b: SourceBatch, source = 'test'): AddressIndex {
  const ib = new IndexBuilder();
  ib.add(b, source);
  return openIndex(ib.build().buffer);
}
