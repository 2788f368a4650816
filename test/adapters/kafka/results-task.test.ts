/**
 * A slice's records from their input bytes to their results in the engine threads
 * (src/adapters/kafka/results-task.ts): per record the same kind, op, chargeable flag, result
 * bytes, kept outcome, DLQ reason and correlation id as the main thread's path before (decode,
 * refusal, UTF-8 check, validate, explain, the engine, resultValue of resultObject), in order,
 * across a split slice, moved both ways between real threads.
 */
import { describe, expect, it } from 'vitest';
import { createValueCodec, type ValueCodec } from '../../../src/adapters/kafka/avro/index.ts';
import { SUBJECTS } from '../../../src/adapters/kafka/avro/schemas.ts';
import { resultObject, resultValue, type OutputFormat } from '../../../src/adapters/kafka/output-messages.ts';
import { keptOnMainThread, RECORD, runResults, type RecordRules } from '../../../src/adapters/kafka/results-task.ts';
import { decodeStreamRecord } from '../../../src/adapters/kafka/stream-record.ts';
import { errorBody, type ErrorBody } from '../../../src/contract/errors.ts';
import type { Op } from '../../../src/contract/params.ts';
import { validateElement } from '../../../src/contract/validate.ts';
import { setExplain, type Outcome } from '../../../src/engine/process.ts';
import { EnginePool } from '../../../src/pool/engine-pool.ts';
import { SPLIT_MIN_ELEMENTS } from '../../../src/pool/split.ts';

const ADDRESS = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', zip: '10115', city: 'Berlin' };

/** Lines requests, most valid; some with extras, some not chargeable (ES), some invalid, some not decodable, some JSON. */
function inputValue(codec: ValueCodec, format: OutputFormat, i: number): Buffer | null {
  const element: Record<string, unknown> = {
    ...ADDRESS, countrycode: i % 7 === 3 ? 'ES' : 'DE', housenumber: String(i + 1), name: `Person ${i}`,
    ...(i % 5 === 1 ? { requestproof: '1' } : {}), ...(i % 11 === 2 ? { returnavailablecredits: '1' } : {}),
    ...(i % 13 === 4 ? { correlationid: `c-${i}` } : {}),
  };
  if (i % 17 === 5) element.countrycode = 'not a country'; // not a valid element: a free error result
  if (i % 19 === 6) return Buffer.from('not a value');
  if (i % 23 === 7) return null;
  if (format === 'json' || i % 29 === 8 || i % 17 === 5) {
    if (i % 31 === 9) return Buffer.concat([Buffer.from('{"op":"lines","name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]); // not UTF-8
    return Buffer.from(JSON.stringify({ op: i % 37 === 10 ? 'search' : 'lines', ...element }));
  }
  return codec.encode('lines-request', element);
}

interface Expected {
  kind: number;
  op?: Op;
  chargeable: boolean;
  value?: Buffer;
  kept?: Outcome;
  undecodable?: { code: string; reason: string };
  correlationId?: string;
}

/** The main thread's path before: decode, refusal, UTF-8, validate, explain; the engine; the result's bytes. */
async function mainThreadPath(pool: EnginePool, codec: ValueCodec, values: Array<Buffer | null>, rules: Omit<RecordRules, 'codec'>): Promise<Expected[]> {
  const refused = new Map<Op, ErrorBody>(rules.refused);
  return Promise.all(values.map(async (value): Promise<Expected> => {
    const r = decodeStreamRecord(codec, { offset: '0', key: null, value }, rules.op);
    if (r.kind === 'undecodable') return { kind: RECORD.undecodable, chargeable: false, undecodable: { code: r.code, reason: r.reason } };
    const base = { op: r.op, ...(r.correlationId !== undefined ? { correlationId: r.correlationId } : {}) };
    const encoded = (o: Outcome): Buffer => resultValue(codec, rules.format, r.op, resultObject(r.op, o, rules.requestid, undefined));
    const error = refused.get(r.op) ?? r.rejected;
    const v = error ? undefined : validateElement(r.op, r.element, rules.defaults);
    if (!v || !v.ok) {
      const o: Outcome = { ok: false, error: error ?? (v as { error: ErrorBody }).error };
      return { ...base, kind: RECORD.free, chargeable: false, value: encoded(o) };
    }
    if (r.op === 'search') setExplain(v.options, rules.explain);
    const [o] = await pool.runValidated(r.op, [v]);
    const chargeable = o!.ok && o!.chargeable;
    return keptOnMainThread(o!) ? { ...base, kind: RECORD.valid, chargeable, kept: o! } : { ...base, kind: RECORD.valid, chargeable, value: encoded(o!) };
  }));
}

const N = SPLIT_MIN_ELEMENTS * 2 + 7;

describe('records decoded, validated, run and encoded in the engine threads', () => {
  for (const [name, codec, format, refused] of [
    ['Avro single-object', createValueCodec(), 'avro', []],
    ['Avro with registry ids (Confluent framing)', createValueCodec({ registryIds: { [SUBJECTS.linesResult]: { 1: 77 } } }), 'avro', []],
    ['JSON, search refused', createValueCodec(), 'json', [['search', errorBody('AGREEMENT_MISSING')]]],
  ] as const) {
    it(`give the main thread's answers and bytes, in order, on a split slice (${name}, 2 threads)`, async () => {
      const pool = await EnginePool.create({ threads: 2 });
      try {
        const values = Array.from({ length: N }, (_, i) => inputValue(codec, format, i));
        const rules = { explain: false, refused: refused as unknown as Array<[Op, ErrorBody]>, format: format as OutputFormat, requestid: 'req-1' };
        const expected = await mainThreadPath(pool, codec, values, rules);
        const r = await runResults(pool, values.map((value) => ({ value })), { ...rules, codec });
        const seen = new Set<number>();
        expected.forEach((e, i) => {
          seen.add(e.kind);
          expect(r.kinds[i], `record ${i}`).toBe(e.kind);
          expect(r.ops[i]).toBe(e.op);
          expect(r.chargeable[i]).toBe(e.chargeable);
          expect(r.kept[i]).toEqual(e.kept);
          expect(r.undecodable.get(i)).toEqual(e.undecodable);
          expect(r.correlationIds.get(i)).toBe(e.correlationId);
          if (e.value) expect(r.values[i]!.equals(e.value), `record ${i}`).toBe(true);
          else expect(r.values[i]).toBeUndefined();
        });
        expect(seen).toEqual(new Set([RECORD.undecodable, RECORD.free, RECORD.valid]));
        expect(r.kept.some(Boolean)).toBe(true); // the ones asking for the balance
        expect(r.chargeable.some((c) => !c) && r.chargeable.some((c) => c)).toBe(true); // ES records are not chargeable
        // the input values were moved to the threads, not copied: the caller's buffers are untouched
        expect(values.every((v, i) => v === null || v.equals(inputValue(codec, format, i)!))).toBe(true);
      } finally {
        await pool.destroy();
      }
    });
  }

  it('an engine failure comes back as its outcome (a DLQ record), never a value (in-process pool, search with no index)', async () => {
    const pool = await EnginePool.create({ threads: 0 });
    const codec = createValueCodec();
    const r = await runResults(pool, [{ value: Buffer.from(JSON.stringify({ op: 'search', city: 'Berlin' })) }], {
      explain: false, refused: [], format: 'avro', requestid: 'req-1', codec,
    });
    expect(r.kinds[0]).toBe(RECORD.valid);
    expect(r.values[0]).toBeUndefined();
    expect(r.kept[0]).toMatchObject({ ok: false, error: { errorcode: 500 } });
    expect(r.chargeable[0]).toBe(false);
  });

  it('--op reaches the threads: a value of another op is not decodable, one without op takes the flag\'s', async () => {
    const pool = await EnginePool.create({ threads: 0 });
    const codec = createValueCodec();
    const values = [{ value: Buffer.from(JSON.stringify({ op: 'lines', ...ADDRESS })) }, { value: Buffer.from(JSON.stringify({ city: 'Berlin' })) }];
    const r = await runResults(pool, values, { op: 'search', explain: false, refused: [], format: 'json', requestid: 'req-1', codec });
    expect(r.kinds[0]).toBe(RECORD.undecodable);
    const d = decodeStreamRecord(codec, { offset: '0', key: null, value: values[0]!.value }, 'search');
    expect(d.kind === 'undecodable' && r.undecodable.get(0)).toEqual(d.kind === 'undecodable' && { code: d.code, reason: d.reason });
    expect(r.ops[1]).toBe('search');
  });
});
