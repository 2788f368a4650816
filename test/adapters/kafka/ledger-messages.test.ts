/**
 * The ledger-topic entries of a slice (src/adapters/kafka/ledger-messages.ts) are the codec's
 * bytes, byte for byte, whatever the id, the framing (single-object or Confluent) or the value
 * format; entries of different settles (an earlier attempt's unexported rows) keep their own fields.
 */
import { describe, expect, it } from 'vitest';
import { createValueCodec } from '../../../src/adapters/kafka/avro/index.ts';
import { SUBJECTS } from '../../../src/adapters/kafka/avro/schemas.ts';
import { ledgerMessages } from '../../../src/adapters/kafka/ledger-messages.ts';
import { ledgerMessage } from '../../../src/adapters/kafka/output-messages.ts';
import type { LedgerEntry } from '../../../src/billing/store.ts';

const base = { account: 'acc-1', function: 'lines', credits: 1, requestid: 'req-abc', time: '2026-11-25T20:00:00.000Z' };
const ids = ['', 'a', 'acc-1/lines/kafka:0f8e:group/3/12345', 'x'.repeat(63), 'x'.repeat(64), 'y'.repeat(200), 'ü'.repeat(40), 'z'.repeat(20_000), '😀/1/2'];
const entries: LedgerEntry[] = [
  ...ids.map((id) => ({ ...base, id })),
  // an earlier settle's row mirrored again (another time, another request id)
  { ...base, id: 'acc-1/lines/kafka:0f8e:group/3/1', time: '2026-11-24T08:00:00.000Z', requestid: 'req-old' },
  { ...base, id: 'acc-1/search/kafka:0f8e:group/3/2', function: 'search', credits: 2 },
  // and this settle's again after them (runs of alike entries, not one template per slice)
  { ...base, id: 'acc-1/lines/kafka:0f8e:group/3/12346' },
  { ...base, id: 'acc-1/lines/kafka:0f8e:group/3/12347', account: 'acc-2' },
] as LedgerEntry[];

describe('ledger messages of a slice', () => {
  for (const [name, codec] of [
    ['single-object', createValueCodec()],
    ['Confluent framing', createValueCodec({ registryIds: { [SUBJECTS.ledgerEntry]: { 1: 4242 } } })],
  ] as const) {
    it(`are the codec's own bytes (${name})`, () => {
      const fast = ledgerMessages(codec, 'avro', entries);
      expect(fast).toHaveLength(entries.length);
      fast.forEach((m, i) => {
        const slow = ledgerMessage(codec, 'avro', entries[i]!);
        expect(Buffer.from(m.key!).equals(Buffer.from(slow.key!))).toBe(true); // the id's UTF-8 bytes (the template's, encoded once)
        expect(m.value!.equals(slow.value!)).toBe(true);
        expect(codec.decode(m.value).value).toEqual({ ...entries[i] });
      });
    });
  }

  it('call the Avro encoder a few times per settle, not once per entry', () => {
    const codec = createValueCodec();
    let calls = 0;
    const counting = { ...codec, encode: (...a: Parameters<typeof codec.encode>) => (calls++, codec.encode(...a)) };
    const many = Array.from({ length: 2000 }, (_, i) => ({ ...base, id: `acc-1/lines/kafka:0f8e:group/3/${i}` })) as LedgerEntry[];
    const out = ledgerMessages(counting, 'avro', many);
    expect(calls).toBeLessThanOrEqual(4);
    expect(out[1999]!.value!.equals(codec.encode(SUBJECTS.ledgerEntry, many[1999]))).toBe(true);
  });

  it('JSON values are the codec\'s JSON', () => {
    const codec = createValueCodec();
    expect(ledgerMessages(codec, 'json', entries)).toEqual(entries.map((e) => ledgerMessage(codec, 'json', e)));
  });
});
