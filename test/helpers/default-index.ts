/**
 * The embedded default index (assets/default-layer, no ../shared needed) for tests of the engine
 * on it: built on first use into .cache (about a minute), then read from there. A test file calls
 * `loadDefaultIndexBeforeAll()` at its top; `defaultIndex` is the index in its tests.
 */
import { beforeAll } from 'vitest';
import { loadDefaultIndex } from '../../src/data/index-file.ts';
import { openIndex, type AddressIndex } from '../../src/engine/index/index.ts';

export let defaultIndex: AddressIndex;

export function loadDefaultIndexBeforeAll(): void {
  beforeAll(async () => { defaultIndex = openIndex(await loadDefaultIndex()); }, 600_000);
}
