import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { parser } from 'stream-json';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { readJsonArrayBatches } from '../../../src/adapters/file/json-array-reader.ts';
import { readNdjsonBatches } from '../../../src/adapters/file/ndjson-reader.ts';
import { detectFormat } from '../../../src/adapters/file/input.ts';
import type { RawBatch } from '../../../src/adapters/file/raw-batch.ts';

/** The text's UTF-8 bytes in chunks of `size` bytes: boundaries fall inside characters too. */
async function* chunked(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield Uint8Array.prototype.slice.call(bytes, i, i + size);
}

/** `text` in chunks of `size` bytes, all in ONE buffer that each read overwrites (as a stream may reuse its chunk). */
async function* reusedChunks(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  const one = Buffer.alloc(size);
  for (let i = 0; i < bytes.length; i += size) {
    const n = bytes.copy(one, 0, i, i + size);
    yield one.subarray(0, n);
    one.fill(0x5c); // overwritten (with backslashes) before the next read
  }
}

async function collect(gen: AsyncIterable<RawBatch>): Promise<RawBatch[]> {
  const out: RawBatch[] = [];
  for await (const b of gen) out.push(b);
  return out;
}

function texts(b: RawBatch): string[] {
  return b.positions.map((_, i) => Buffer.from(b.bytes.subarray(b.bounds[2 * i], b.bounds[2 * i + 1])).toString('utf8'));
}

function flat(batches: RawBatch[]) {
  return {
    texts: batches.flatMap(texts),
    positions: batches.flatMap((b) => b.positions),
    errors: batches.flatMap((b) => (b.readerErrors ?? []).map(([i, m]) => [b.positions[i], m] as const)),
  };
}

/** stream-json's reading of the same text: the reference the splitter must agree with. */
async function streamJsonElements(text: string): Promise<unknown[]> {
  const out: unknown[] = [];
  const pipeline = Readable.from([text]).pipe(parser.asStream()).pipe(streamArray.asStream());
  for await (const item of pipeline) out.push((item as { value: unknown }).value);
  return out;
}

describe('NDJSON reader', () => {
  it('keeps no view of a chunk the stream reuses: a line across chunks keeps its bytes', async () => {
    const lines = ['{"k":"' + 'x'.repeat(40) + '"}', '{"\\"":"\\\\"}', JSON.stringify({ a: 'é'.repeat(30) })];
    for (const size of [1, 3, 7, 16]) {
      expect(flat(await collect(readNdjsonBatches(reusedChunks(lines.join('\n'), size), 2))).texts).toEqual(lines);
    }
  });

  it('splits lines, skips blank ones, keeps real line numbers, handles CRLF and a last line without newline', async () => {
    const text = '{"a":1}\r\n\n   \n{"a":2}\n{"a":3}';
    const r = flat(await collect(readNdjsonBatches(chunked(text, 3), 2)));
    expect(r.texts).toEqual(['{"a":1}', '{"a":2}', '{"a":3}']);
    expect(r.positions).toEqual([1, 4, 5]);
  });

  it('cuts batches at the batch size', async () => {
    const text = Array.from({ length: 2500 }, (_, i) => `{"i":${i}}`).join('\n') + '\n';
    const batches = await collect(readNdjsonBatches(chunked(text, 4096), 1000));
    expect(batches.map((b) => b.positions.length)).toEqual([1000, 1000, 500]);
    expect(batches[2]!.positions.at(-1)).toBe(2500);
  });

  it('reports a line over the size limit in its slot, keeps none of its bytes, and reads on', async () => {
    const long = '{"city":"' + 'x'.repeat(200) + '"}';
    const text = `{"a":1}\n${long}\n{"a":3}\n${long}`;
    for (const size of [7, 64, 1000]) {
      const r = flat(await collect(readNdjsonBatches(chunked(text, size), 10, 100)));
      expect(r.positions).toEqual([1, 2, 3, 4]);
      expect(r.texts[0]).toBe('{"a":1}');
      expect(r.texts[2]).toBe('{"a":3}');
      expect(r.errors).toEqual([[2, expect.stringMatching(/^Line 2: longer than 100 bytes/)], [4, expect.stringMatching(/^Line 4: longer than 100 bytes/)]]);
    }
  });

  it('keeps multi-byte characters whole when a chunk boundary falls inside them', async () => {
    const text = '{"city":"Zürich"}\n{"city":"Αθήνα"}\n{"city":"😀"}\n';
    for (let size = 1; size < 12; size++) {
      expect(flat(await collect(readNdjsonBatches(chunked(text, size), 2))).texts.map((t) => JSON.parse(t).city)).toEqual(['Zürich', 'Αθήνα', '😀']);
    }
  });

  it('gives the same records whatever the chunk boundaries (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 30 }), fc.integer({ min: 1, max: 50 }), async (values, size) => {
        const text = values.map((v) => JSON.stringify(v)).join('\n');
        const r = flat(await collect(readNdjsonBatches(chunked(text, size), 7)));
        // JSON text is the reference (it has no -0), so compare with the values' own round trip.
        expect(r.texts.map((t) => JSON.parse(t))).toEqual(values.map((v) => JSON.parse(JSON.stringify(v))));
      }),
      { numRuns: 200 },
    );
  });
});

describe('JSON array reader', () => {
  it('splits top-level elements, not nested commas or commas inside strings', async () => {
    const text = ' [ {"a":[1,2,{"b":","}]} , {"s":"x\\",]y"}, 3 ,"q" ] ';
    const r = flat(await collect(readJsonArrayBatches(chunked(text, 5), 10)));
    expect(r.texts.map((t) => JSON.parse(t))).toEqual([{ a: [1, 2, { b: ',' }] }, { s: 'x",]y' }, 3, 'q']);
    expect(r.positions).toEqual([1, 2, 3, 4]);
    expect(r.errors).toEqual([]);
  });

  it('reports an element over the size limit in its slot and reads on', async () => {
    const long = { city: 'x'.repeat(200), nested: [1, { s: '],' }] };
    const text = JSON.stringify([{ a: 1 }, long, { a: 3 }]);
    for (const size of [5, 64, 1000]) {
      const r = flat(await collect(readJsonArrayBatches(chunked(text, size), 10, 100)));
      expect(r.positions).toEqual([1, 2, 3]);
      expect(r.texts[0]).toBe('{"a":1}');
      expect(r.texts[2]).toBe('{"a":3}');
      expect(r.errors).toEqual([[2, expect.stringMatching(/^Element 2: longer than 100 bytes/)]]);
    }
  });

  it('reads an empty array as no records', async () => {
    expect(flat(await collect(readJsonArrayBatches(chunked('[ \n ]', 2), 10))).texts).toEqual([]);
  });

  it('keeps a malformed element in its own slot and goes on with the next one', async () => {
    const r = flat(await collect(readJsonArrayBatches(chunked('[{"a":1},{"a":},{"a":3}]', 4), 10)));
    expect(r.texts).toEqual(['{"a":1}', '{"a":}', '{"a":3}']);
  });

  it('reports an unclosed array and text after the closing bracket in slots of their own', async () => {
    const open = flat(await collect(readJsonArrayBatches(chunked('[{"a":1},{"a":2}', 4), 10)));
    expect(open.texts.slice(0, 2)).toEqual(['{"a":1}', '{"a":2}']);
    expect(open.errors).toEqual([[3, expect.stringContaining('closing ]')]]);
    const trailing = flat(await collect(readJsonArrayBatches(chunked('[{"a":1}] {"b":2}', 4), 10)));
    expect(trailing.texts[0]).toBe('{"a":1}');
    expect(trailing.errors).toEqual([[2, expect.stringContaining('after the array')]]);
  });

  it('finds string ends across runs of backslashes and escaped quotes at any chunk boundary', async () => {
    const tricky = fc.array(fc.constantFrom('\\', '"', 'a', ',', ']', '}', 'ü'), { maxLength: 12 }).map((cs) => cs.join(''));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ s: tricky, t: fc.array(tricky, { maxLength: 3 }) }), { maxLength: 8 }), fc.integer({ min: 1, max: 9 }), async (values, size) => {
        const text = JSON.stringify(values);
        expect(flat(await collect(readJsonArrayBatches(chunked(text, size), 3))).texts.map((t) => JSON.parse(t))).toEqual(values);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps no view of a chunk the stream reuses: an element across chunks keeps its bytes', async () => {
    const text = '[{"k":"' + 'x'.repeat(40) + '"},{"\\"":"\\\\"},' + JSON.stringify({ a: 'é'.repeat(30) }) + ']';
    for (const size of [1, 3, 7, 16]) {
      const ours = flat(await collect(readJsonArrayBatches(reusedChunks(text, size), 2))).texts.map((t) => JSON.parse(t));
      expect(ours).toEqual(JSON.parse(text));
    }
  });

  it('agrees with stream-json on every valid array, whatever the chunking (fuzz)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue(), { maxLength: 25 }),
        fc.integer({ min: 1, max: 64 }),
        fc.constantFrom('', ' ', '\n', '\t\r\n  '),
        async (values, size, ws) => {
          const text = '[' + ws + values.map((v) => JSON.stringify(v, null, ws ? 1 : undefined)).join(ws + ',' + ws) + ws + ']';
          const ours = flat(await collect(readJsonArrayBatches(chunked(text, size), 4))).texts.map((t) => JSON.parse(t));
          expect(ours).toEqual(await streamJsonElements(text));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('format detection', () => {
  it('detects a JSON array after white space and a byte-order mark, NDJSON otherwise, and loses no chunk', async () => {
    const a = await detectFormat(chunked('\uFEFF \n [1,2]', 2));
    expect(a.format).toBe('array');
    const all: Uint8Array[] = [];
    for await (const c of a.chunks) all.push(c);
    expect(Buffer.concat(all).toString('utf8')).toBe('\uFEFF \n [1,2]');
    expect((await detectFormat(chunked('{"a":1}\n', 3))).format).toBe('ndjson');
    expect((await detectFormat(chunked('', 3))).format).toBe('ndjson');
  });
});
