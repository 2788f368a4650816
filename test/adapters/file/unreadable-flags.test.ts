/**
 * Which records are unreadable (flag UNREADABLE of a raw result) and which are only refused, as
 * the worker loops set it, and how the main thread finds the first ones' reasons again in the
 * batch's output (NDJSON lines, CSV rows with quoted line breaks, --errors, gzip members).
 */
import { describe, expect, it } from 'vitest';
import { runFileBatch } from '../../../src/adapters/file/worker/run-file-batch.ts';
import { CHARGEABLE, OK, UNREADABLE, type CsvTaskSpec, type RawResult, type RawTask } from '../../../src/adapters/file/worker/batch-task.ts';
import { RECORD_KEYS } from '../../../src/contract/records.ts';
import { countUnreadable, unreadableRows } from '../../../src/adapters/file/unreadable.ts';
import { rawRecords as raw } from '../../helpers/raw-records.ts';

const LINES = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '1', zip: '10115', city: 'Berlin' };

describe('NDJSON / JSON array records', () => {
  const parts = [
    JSON.stringify(LINES), // 1 processed
    '{"countrycode":"DE"}', // 2 refused: 428
    JSON.stringify({ ...LINES, zip: 12345 }), // 3 refused: 412 (a number)
    '{"countrycode":', // 4 not JSON
    Buffer.concat([Buffer.from('{"city":"K'), Buffer.from([0xf6]), Buffer.from('ln"}')]), // 5 not UTF-8
    '[1,2]', // 6 JSON, not an object
    '42', // 7 JSON, not an object
    'null', // 8 JSON, not an object
    '', // 9 a reader error slot (too long, an empty element)
  ];
  const task = (extra: Partial<RawTask> = {}): RawTask => ({
    kind: 'file-batch', op: 'lines', unit: 'line', ...raw(parts), readerErrors: [[8, 'Line 9: longer than 1048576 bytes; not read.']], ...extra,
  });

  it('flags what the reader or the format could not read, not what the parameter table refused', () => {
    const r = runFileBatch({ ctx: {} }, task());
    expect([...r.flags]).toEqual([OK | CHARGEABLE, 0, 0, UNREADABLE, UNREADABLE, UNREADABLE, UNREADABLE, UNREADABLE, UNREADABLE]);
    expect([...r.codes]).toEqual([0, 428, 412, 412, 412, 412, 412, 412, 412]);
    expect(countUnreadable(r.flags)).toBe(6);
  });

  it('finds the first ones\' reasons in the output, in --errors and in a gzip member', () => {
    for (const extra of [{}, { separateErrors: true }, { separateErrors: true, gzip: { output: true, errors: true } }, { gzip: { output: true, errors: false } }]) {
      const t = task(extra);
      const r = runFileBatch({ ctx: {} }, t);
      const rows = unreadableRows(r, t.positions, t.readerErrors, { separateErrors: extra.separateErrors ?? false }, 4);
      expect(rows).toEqual([
        { position: 4, reason: expect.stringMatching(/^not valid JSON/) },
        { position: 5, reason: 'not valid UTF-8.' },
        { position: 6, reason: 'A request element must be a JSON object; got an array.' },
        { position: 7, reason: expect.stringMatching(/JSON object/) },
      ]);
      expect(unreadableRows(r, t.positions, t.readerErrors, { separateErrors: extra.separateErrors ?? false }, 10).at(-1))
        .toEqual({ position: 9, reason: 'longer than 1048576 bytes; not read.' });
    }
  });
});

describe('CSV records', () => {
  const spec = (delimiter: string): CsvTaskSpec => ({
    delimiter, encoding: 'utf-8', columns: 4, resultKeys: RECORD_KEYS.lines,
    bindings: [['countrycode', [0]], ['sendercountrycode', [1]], ['street', [2]], ['city', [3]]],
    out: { delimiter, newline: '\n', excel: false },
  });
  const parts = [
    'DE,DE,"Haupt\nstraße",Berlin', // 1 processed (a quoted line break)
    'DE,,Ring,Köln', // 2 refused: 428
    'DE,DE,"Weg"x,Bonn', // 3 bad quoting
    'DE,DE,Allee,Berlin,extra', // 4 more fields than the header
    Buffer.concat([Buffer.from('DE,DE,Gasse,K'), Buffer.from([0xf6]), Buffer.from('ln')]), // 5 not UTF-8
    '', // 6 a reader error slot
    'DE,DE,"Platz\n""1""",Berlin', // 7 processed
  ];

  it('flags bad quoting, extra fields, bad bytes and reader slots; finds their reasons in rows with quoted line breaks', () => {
    for (const separateErrors of [false, true]) {
      const t: RawTask = { kind: 'file-batch', op: 'lines', unit: 'record', ...raw(parts), readerErrors: [[5, 'Record 6: longer than 1048576 bytes; not read (a quote that is never closed?).']], csv: spec(','), separateErrors };
      const r = runFileBatch({ ctx: {} }, t);
      expect([...r.flags].map((f) => f & UNREADABLE)).toEqual([0, 0, UNREADABLE, UNREADABLE, UNREADABLE, UNREADABLE, 0]);
      expect(r.flags[1]).toBe(0);
      expect(unreadableRows(r, t.positions, t.readerErrors, { separateErrors, csv: spec(',').out }, 10)).toEqual([
        { position: 3, reason: expect.stringMatching(/^bad quoting/) },
        { position: 4, reason: "more fields than the header's 4." },
        { position: 5, reason: expect.stringMatching(/^not valid UTF-8/) },
        { position: 6, reason: 'longer than 1048576 bytes; not read (a quote that is never closed?).' },
      ]);
    }
  });
});
