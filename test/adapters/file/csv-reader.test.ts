/**
 * The file job's CSV batch reader (main thread): header, BOM, delimiter detection and record
 * numbering hold whatever the chunking, and records come out whole (property-tested).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openCsvBatches } from '../../../src/adapters/file/csv-reader.ts';
import { parseFields } from '../../../src/csv/fields.ts';
import { csvRow } from '../../../src/csv/writer.ts';

async function* chunked(bytes: Buffer, cuts: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const c of [...new Set(cuts.filter((x) => x > 0 && x < bytes.length))].sort((a, b) => a - b)) {
    yield Buffer.from(bytes.subarray(at, c));
    at = c;
  }
  yield Buffer.from(bytes.subarray(at));
}

async function readAll(bytes: Buffer, cuts: number[], batchSize: number) {
  const { header, delimiter, batches } = await openCsvBatches(chunked(bytes, cuts), batchSize, { encoding: 'utf-8' });
  const records: Array<{ fields: string[]; position: number }> = [];
  for await (const b of batches) {
    const buf = Buffer.from(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
    b.positions.forEach((position, i) => records.push({ position, fields: parseFields(buf.toString('utf8', b.bounds[2 * i]!, b.bounds[2 * i + 1]!), delimiter).fields }));
  }
  return { header, delimiter, records };
}

describe('CSV batch reader', () => {
  it('reads the header (BOM skipped, ; detected) and numbers records across quoted line breaks', async () => {
    const text = '\uFEFFa;b\r\n"1\n2";x\r\n\r\n3;"y;z"\r\n';
    const r = await readAll(Buffer.from(text), [2, 5], 1);
    expect(r.header).toEqual(['a', 'b']);
    expect(r.delimiter).toBe(';');
    expect(r.records).toEqual([{ position: 1, fields: ['1\n2', 'x'] }, { position: 2, fields: ['3', 'y;z'] }]);
  });

  it('a header with a quoted line break spanning chunks; an empty input', async () => {
    const r = await readAll(Buffer.from('"long\nname",b\n1,2'), [3, 8], 10);
    expect(r.header).toEqual(['long\nname', 'b']);
    expect(r.records).toEqual([{ position: 1, fields: ['1', '2'] }]);
    expect(await readAll(Buffer.alloc(0), [], 10)).toEqual({ header: [], delimiter: ',', records: [] });
  });

  it('any rows, any chunking, any batch size: the same header and records, numbered 1…n', async () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'é', '"', ',', ';', '\n', '\r', ' ', '1'), maxLength: 6 });
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }).chain((w) => fc.tuple(
        fc.array(fc.stringMatching(/^[a-z]{1,5}$/), { minLength: w, maxLength: w }),
        fc.array(fc.array(cell, { minLength: w, maxLength: w }), { maxLength: 20 }),
      )),
      fc.array(fc.nat(500), { maxLength: 6 }),
      fc.integer({ min: 1, max: 7 }),
      async ([header, rows], cuts, batchSize) => {
        const o = { delimiter: ',', newline: '\r\n', excel: false } as const;
        const kept = rows.filter((r) => !(r.length === 1 && r[0] === ''));
        const bytes = Buffer.from(csvRow(header, o) + kept.map((r) => csvRow(r, o)).join(''));
        const r = await readAll(bytes, cuts, batchSize);
        expect(r.header).toEqual(header);
        expect(r.records).toEqual(kept.map((fields, i) => ({ position: i + 1, fields })));
      },
    ), { numRuns: 300 });
  });
});
