/**
 * The pool's own task in a worker, validated elements to outcomes (src/pool/run-validated.ts),
 * over the real engine: an engine defect is confined to its element.
 */
import { describe, expect, it } from 'vitest';
import { runValidatedTask } from '../../src/pool/run-validated.ts';
import { validateElement, type ValidElement } from '../../src/contract/validate.ts';
import type { Op } from '../../src/contract/params.ts';

function valid(op: Op, element: Record<string, string>): ValidElement {
  const v = validateElement(op, element);
  if (!v.ok) throw new Error(v.error.errormessage);
  return v;
}

describe('runValidatedTask', () => {
  it('confines an engine failure to its element: a 500 outcome there, the others processed', () => {
    const lines = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '1', zip: '10115', city: 'Berlin' };
    // A search without an index makes the engine throw: the stand-in for an engine defect.
    const search = runValidatedTask({ ctx: {} }, { kind: 'validated', op: 'search', elements: [valid('search', { city: 'Berlin' })] });
    expect(search).toEqual({ outcomes: [{ ok: false, error: { errorcode: 500, errormessage: expect.stringMatching(/^An unexpected condition/) } }] });
    const ok = runValidatedTask({ ctx: {} }, { kind: 'validated', op: 'lines', elements: [valid('lines', lines), valid('lines', { ...lines, zip: 'x' })] });
    expect(ok.outcomes.map((o) => o.ok && (o.record as { addresslinestatuscode: number }).addresslinestatuscode)).toEqual([0, 31]);
  });
});
