/**
 * The HTTP test helper never falls back to a fake engine: when the real pool cannot start, the
 * suites that asked for it fail (issue 12). Here the pool's workers get an index buffer that is
 * not an index, which makes the pool fail at start, as a broken engine module would. (In-process
 * mode, threads: 0: with worker threads the same failure surfaces as an 'error' event that the
 * pool does not listen to, an uncaught exception of its own — see the report of issue 12.)
 */
import { describe, expect, it } from 'vitest';
import { chooseEngine } from './http-server.ts';
import { validateElement } from '../../src/contract/validate.ts';

describe('chooseEngine (test/helpers/http-server.ts)', () => {
  it('rejects, naming the cause, when the real engine pool cannot start', async () => {
    const notAnIndex = new SharedArrayBuffer(64);
    new Uint8Array(notAnIndex).set(new TextEncoder().encode('NOTANIDX'));
    await expect(chooseEngine({ indexBuffer: notAnIndex, threads: 0 })).rejects.toThrow(/the real engine pool cannot run: .*(index|magic)/i);
  });

  it('gives the real pool when it can start', async () => {
    const engine = await chooseEngine();
    try {
      expect(engine.kind).toBe('pool');
      const v = validateElement('lines', { countrycode: 'FR', sendercountrycode: 'FR', street: '10 Rue de Rivoli', zip: '75004', city: 'Paris' });
      if (!v.ok) throw new Error('the element is valid');
      const [o] = await engine.runner.runValidated('lines', [v]);
      expect(o?.ok).toBe(true);
    } finally {
      await engine.close();
    }
  });
});
