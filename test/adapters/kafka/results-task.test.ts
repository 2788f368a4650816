/**
 * The Kafka worker's results encoded in the engine threads (src/adapters/kafka/results-task.ts):
 * the values are the bytes the main thread wrote before (resultValue of resultObject), in order,
 * across a split slice, moved back from real threads; the outcomes the main thread still needs
 * (results that carry the balance, engine failures) come back as outcomes, not values.
 */
import { describe, expect, it } from 'vitest';
import { createValueCodec } from '../../../src/adapters/kafka/avro/index.ts';
import { SUBJECTS } from '../../../src/adapters/kafka/avro/schemas.ts';
import { resultObject, resultValue, type OutputFormat } from '../../../src/adapters/kafka/output-messages.ts';
import { keptOnMainThread, runResults } from '../../../src/adapters/kafka/results-task.ts';
import { validateElement, type ValidElement } from '../../../src/contract/validate.ts';
import { EnginePool } from '../../../src/pool/engine-pool.ts';
import { SPLIT_MIN_ELEMENTS } from '../../../src/pool/split.ts';

function lines(i: number): ValidElement {
  const v = validateElement('lines', {
    countrycode: i % 7 === 3 ? 'ES' : 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: String(i + 1), zip: '10115', city: 'Berlin',
    name: `Person ${i}`, ...(i % 5 === 1 ? { requestproof: '1' } : {}), ...(i % 11 === 2 ? { returnavailablecredits: '1' } : {}),
  });
  if (!v.ok) throw new Error(v.error.errormessage);
  return v;
}

const elements = Array.from({ length: SPLIT_MIN_ELEMENTS * 2 + 7 }, (_, i) => lines(i));

describe('results encoded in the engine threads', () => {
  for (const [name, codec, format] of [
    ['Avro single-object', createValueCodec(), 'avro'],
    ['Avro with registry ids (Confluent framing)', createValueCodec({ registryIds: { [SUBJECTS.linesResult]: { 1: 77 } } }), 'avro'],
    ['JSON', createValueCodec(), 'json'],
  ] as const) {
    it(`are the main thread's bytes, in order, on a split slice (${name}, 2 threads)`, async () => {
      const pool = await EnginePool.create({ threads: 2 });
      try {
        const r = await runResults(pool, 'lines', elements, { format: format as OutputFormat, requestid: 'req-1', codec });
        const outcomes = await pool.runValidated('lines', elements);
        let kept = 0;
        outcomes.forEach((o, i) => {
          expect(r.chargeable[i]).toBe(o.ok && o.chargeable);
          if (keptOnMainThread(o)) {
            kept++;
            expect(r.values[i]).toBeUndefined();
            expect(r.kept[i]).toEqual(o);
          } else {
            expect(r.kept[i]).toBeUndefined();
            expect(r.values[i]!.equals(resultValue(codec, format as OutputFormat, 'lines', resultObject('lines', o, 'req-1', undefined)))).toBe(true);
          }
        });
        expect(kept).toBeGreaterThan(0); // the ones asking for the balance
        expect(r.chargeable.some((c) => !c) && r.chargeable.some((c) => c)).toBe(true); // ES records are not chargeable
      } finally {
        await pool.destroy();
      }
    });
  }

  it('an engine failure comes back as its outcome (a DLQ record), never a value (in-process pool, search with no index)', async () => {
    const pool = await EnginePool.create({ threads: 0 });
    const v = validateElement('search', { city: 'Berlin' });
    if (!v.ok) throw new Error(v.error.errormessage);
    const r = await runResults(pool, 'search', [v], { format: 'avro', requestid: 'req-1', codec: createValueCodec() });
    expect(r.values[0]).toBeUndefined();
    expect(r.kept[0]).toMatchObject({ ok: false, error: { errorcode: 500 } });
    expect(r.chargeable[0]).toBe(false);
  });
});
