/**
 * search-result v2 (issue 18, consume --explain): the explanation's Avro form. The worker writes
 * v2 only for a result that carries an explanation; every other result is still v1, and both
 * decode (a v1 record read as v2 has no explanation).
 */
import { describe, expect, it } from 'vitest';
import { createValueCodec, loadSchemas, resultFromAvro, resultToAvro, type DecodedAvro } from '../../../../src/adapters/kafka/avro/index.ts';
import { resultVersion } from '../../../../src/adapters/kafka/avro/records.ts';
import { resultMessage } from '../../../../src/adapters/kafka/output-messages.ts';
import type { Explanation } from '../../../../src/contract/explain.ts';
import { SEARCH_RECORD_KEYS } from '../../../../src/contract/records.ts';

const schemas = loadSchemas();
const codec = createValueCodec({ schemas });
const RECORD = Object.fromEntries(SEARCH_RECORD_KEYS.map((k) => [k, ''])) as Record<string, unknown>;
Object.assign(RECORD, { country_iso_2: 'DE', city: 'München', zip: '80331', relevance: '96', matchlevel: 'general' });
const EXPLAIN: Explanation = {
  parts: [
    { input: 'Muenchen', status: 'corrected', field: 'city', became: 'München', why: 'transliteration' },
    { input: 'xyz', status: 'ignored', field: '', became: '', why: 'nothing in the answer explains it' },
    { input: '', status: 'inferred', field: 'country_iso_2', became: 'DE', why: 'the country of the place found' },
  ],
  deductions: [{ code: 'UNEXPLAINED_WORD', points: 33.3, why: 'a word of the input that nothing in the answer explains ("xyz")' }],
};
const input = { key: Buffer.from('k'), value: null, headers: {}, offset: '0' } as never;

describe('search-result v2', () => {
  it('is backward compatible: loading the schemas checks that v2 reads v1', () => {
    expect(schemas.version('search-result', 1)).toBeDefined();
    expect(schemas.latest('search-result')!.version).toBe(2);
  });

  it('a result with an explanation round-trips as v2', () => {
    const result = { ...RECORD, requestid: 'r-1', explain: EXPLAIN };
    expect(resultVersion('search', result)).toBe(2);
    const m = resultMessage(codec, 'avro', 'search', input, undefined, result);
    expect(m.value!.readBigUInt64LE(2)).toBe(schemas.version('search-result', 2)!.fingerprint);
    const d = codec.decode(m.value) as DecodedAvro;
    expect(d.writerVersion).toBe(2);
    expect(resultFromAvro('search', d.value as never)).toEqual(result);
  });

  it('a result without one is still written as v1, and reads back without an explain key', () => {
    const m = resultMessage(codec, 'avro', 'search', input, undefined, RECORD);
    expect(m.value!.readBigUInt64LE(2)).toBe(schemas.version('search-result', 1)!.fingerprint);
    const d = codec.decode(m.value) as DecodedAvro;
    expect(d).toMatchObject({ writerVersion: 1, readerVersion: 2 });
    const back = resultFromAvro('search', d.value as never);
    expect(back).toEqual(RECORD);
    expect('explain' in back).toBe(false);
  });

  it('a v1-only reader reads the default results exactly as before (the v1 type decodes their bodies)', () => {
    const m = resultMessage(codec, 'avro', 'search', input, undefined, RECORD);
    const v1 = schemas.version('search-result', 1)!.type;
    expect(v1.fromBuffer(m.value!.subarray(10))).toMatchObject({ record: RECORD, error: null });
  });

  it('lines results stay v1; JSON values carry the key as is', () => {
    expect(resultVersion('lines', { explain: EXPLAIN })).toBe(1);
    const m = resultMessage(codec, 'json', 'search', input, undefined, { ...RECORD, explain: EXPLAIN });
    expect(JSON.parse(m.value!.toString()).explain).toEqual(EXPLAIN);
    expect(resultToAvro('search', RECORD)).not.toHaveProperty('explain');
  });
});
