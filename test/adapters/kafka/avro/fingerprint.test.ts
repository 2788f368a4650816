/**
 * Parsing Canonical Form and CRC-64-AVRO against the Avro specification's published test
 * vectors (apache/avro share/test/data/schema-tests.txt; fingerprints printed there as Java longs).
 */
import { describe, expect, it } from 'vitest';
import { parsingCanonicalForm, rabinFingerprint, schemaFingerprint } from '../../../../src/adapters/kafka/avro/fingerprint.ts';

const VECTORS: { input: string; canonical: string; fingerprint?: bigint }[] = [
  { input: '"null"', canonical: '"null"', fingerprint: 7195948357588979594n },
  { input: '{"type":"null"}', canonical: '"null"' },
  { input: '"boolean"', canonical: '"boolean"', fingerprint: -6970731678124411036n },
  { input: '"int"', canonical: '"int"', fingerprint: 8247732601305521295n },
  { input: '"long"', canonical: '"long"', fingerprint: -3434872931120570953n },
  { input: '"string"', canonical: '"string"', fingerprint: -8142146995180207161n },
  { input: '[  ]', canonical: '[]', fingerprint: -1241056759729112623n },
  { input: '[ "int" , {"type":"boolean"} ]', canonical: '["int","boolean"]', fingerprint: 5392556393470105090n },
  { input: '{"fields":[], "type":"record", "name":"foo"}', canonical: '{"name":"foo","type":"record","fields":[]}', fingerprint: -4824392279771201922n },
  { input: '{"fields":[], "type":"record", "name":"foo", "namespace":"x.y"}', canonical: '{"name":"x.y.foo","type":"record","fields":[]}', fingerprint: 5916914534497305771n },
  { input: '{"fields":[], "type":"record", "name":"a.b.foo", "namespace":"x.y"}', canonical: '{"name":"a.b.foo","type":"record","fields":[]}', fingerprint: -4616218487480524110n },
  { input: '{"fields":[], "type":"record", "name":"foo", "doc":"foo", "aliases":["foo","bar"]}', canonical: '{"name":"foo","type":"record","fields":[]}', fingerprint: -4824392279771201922n },
  {
    input: '{ "fields":[{"type":"boolean", "aliases":[], "name":"f1", "default":"true"}, {"order":"descending","name":"f2","doc":"Hello","type":"int"}], "type":"record", "name":"foo" }',
    canonical: '{"name":"foo","type":"record","fields":[{"name":"f1","type":"boolean"},{"name":"f2","type":"int"}]}',
    fingerprint: -4860222112080293046n,
  },
  { input: '{"namespace":"x.y.z", "type":"enum", "name":"foo", "doc":"foo bar", "symbols":["A1", "A2"]}', canonical: '{"name":"x.y.z.foo","type":"enum","symbols":["A1","A2"]}', fingerprint: -4448647247586288245n },
  { input: '{"name":"foo","type":"fixed","size":15}', canonical: '{"name":"foo","type":"fixed","size":15}', fingerprint: 1756455273707447556n },
  { input: '{ "items":{"type":"null"}, "type":"array"}', canonical: '{"type":"array","items":"null"}', fingerprint: -589620603366471059n },
  { input: '{ "values":"string", "type":"map"}', canonical: '{"type":"map","values":"string"}', fingerprint: -8732877298790414990n },
  {
    input: '{"name":"PigValue","type":"record", "fields":[{"name":"value", "type":["null", "int", "long", "PigValue"]}]}',
    canonical: '{"name":"PigValue","type":"record","fields":[{"name":"value","type":["null","int","long","PigValue"]}]}',
    fingerprint: -1759257747318642341n,
  },
];

describe('Avro Parsing Canonical Form and CRC-64-AVRO fingerprint', () => {
  it.each(VECTORS)('$input', ({ input, canonical, fingerprint }) => {
    expect(parsingCanonicalForm(JSON.parse(input))).toBe(canonical);
    if (fingerprint !== undefined) {
      expect(BigInt.asIntN(64, rabinFingerprint(canonical))).toBe(fingerprint);
      expect(BigInt.asIntN(64, schemaFingerprint(JSON.parse(input)))).toBe(fingerprint);
    }
  });

  it('resolves nested names against the enclosing namespace and drops logical types', () => {
    const schema = {
      type: 'record', name: 'Outer', namespace: 'addrflow',
      fields: [
        { name: 'inner', type: { type: 'record', name: 'Inner', fields: [{ name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } }] } },
        { name: 'again', type: 'Inner' },
      ],
    };
    expect(parsingCanonicalForm(schema)).toBe(
      '{"name":"addrflow.Outer","type":"record","fields":[{"name":"inner","type":{"name":"addrflow.Inner","type":"record","fields":[{"name":"at","type":"long"}]}},{"name":"again","type":"addrflow.Inner"}]}',
    );
  });
});
