/**
 * `serve`'s engine runner: a single recipient block runs on the event loop with the answer the
 * pool's threads give; a lookup and a batch go to the pool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InlineSingleRunner } from '../../../src/adapters/http/inline-runner.ts';
import type { ElementRunner } from '../../../src/adapters/http/api.ts';
import type { Op } from '../../../src/contract/params.ts';
import { validateElement, type ValidElement } from '../../../src/contract/validate.ts';
import { loadDefaultIndex } from '../../../src/data/index-file.ts';
import { EnginePool } from '../../../src/pool/engine-pool.ts';

function valid(op: Op, element: Record<string, string>): ValidElement {
  const v = validateElement(op, element);
  if (!v.ok) throw new Error(v.error.errormessage);
  return v;
}

const BLOCKS: Record<string, string>[] = [
  { countrycode: 'AT', sendercountrycode: 'DE', street: 'Mariahilfer Straße', housenumber: '10', zip: '1070', city: 'Wien' },
  { countrycode: 'GB', sendercountrycode: 'FR', street: 'Downing Street', housenumber: '10', zip: 'SW1A 2AA', city: 'London' },
];

describe('InlineSingleRunner', () => {
  let pool: EnginePool;
  let runner: InlineSingleRunner;
  const toPool: string[] = [];

  beforeAll(async () => {
    pool = await EnginePool.create({ threads: 1, indexBuffer: await loadDefaultIndex() });
    const counted: ElementRunner = { runValidated: (op, els) => (toPool.push(`${op} ${els.length}`), pool.runValidated(op, els)) };
    runner = new InlineSingleRunner(counted);
  }, 120_000);
  afterAll(async () => {
    await pool?.destroy();
  });

  it('runs a single recipient block on the calling thread, with the answer the pool gives', async () => {
    for (const b of BLOCKS) {
      const inline = await runner.runValidated('lines', [valid('lines', b)]);
      expect(inline).toEqual(await pool.runValidated('lines', [valid('lines', b)]));
      expect(inline[0]!.ok).toBe(true);
    }
    expect(toPool).toEqual([]);
  });

  it('sends a lookup and a batch of blocks to the pool', async () => {
    const search = await runner.runValidated('search', [valid('search', { address: 'Praha' })]);
    expect(search[0]!.ok).toBe(true);
    const batch = BLOCKS.map((b) => valid('lines', b));
    expect(await runner.runValidated('lines', batch)).toEqual(await pool.runValidated('lines', batch));
    expect(toPool).toEqual(['search 1', 'lines 2']);
  });
});
