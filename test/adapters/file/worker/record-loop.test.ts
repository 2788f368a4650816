/**
 * The file job's one record loop (src/adapters/file/worker/record-loop.ts) with each record
 * format: NDJSON lines, JSON-array elements and CSV records, through the real file-batch handler
 * and the real engine (`lines`, which needs no index; `search` without an index stands for an
 * engine defect). The per-record flags: OK, CHARGEABLE and UNREADABLE.
 */
import { describe, expect, it } from 'vitest';
import { runFileBatch } from '../../../../src/adapters/file/worker/run-file-batch.ts';
import { CHARGEABLE, OK, UNREADABLE, type CsvTaskSpec, type RawTask } from '../../../../src/adapters/file/worker/batch-task.ts';
import { RECORD_KEYS } from '../../../../src/contract/records.ts';
import { rawRecords as raw } from '../../../helpers/raw-records.ts';

function task(t: Omit<RawTask, 'kind'>): RawTask {
  return { kind: 'file-batch', ...t };
}

/** A batch's output or errors bytes as text. */
function text(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('utf8');
}

const lines = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '1', zip: '10115', city: 'Berlin' };
const BAD_UTF8 = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]); // {"a":"\xc3("}

describe('the record loop, NDJSON lines', () => {
  it('isolates an engine failure to its record: 500 in that slot, the rest processed', () => {
    // A search without an index makes processElement throw: the stand-in for an engine defect.
    const r = runFileBatch({ ctx: {} }, task({ op: 'search', unit: 'line', ...raw([JSON.stringify({ id: 'a', city: 'Berlin' })]) }));
    expect(JSON.parse(text(r.output))).toEqual({ id: 'a', errorcode: 500, errormessage: expect.stringMatching(/^Line 1: An unexpected condition/) });
    expect(r.flags[0]).toBe(0);
    expect(r.codes[0]).toBe(500);
    const ok = runFileBatch({ ctx: {} }, task({ op: 'lines', unit: 'line', ...raw([JSON.stringify(lines), JSON.stringify({ ...lines, zip: 'x' })]) }));
    const out = text(ok.output).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out[0]!.addresslinestatuscode).toBe(0);
    expect(out[1]!.addresslinestatuscode).toBe(31);
    expect([...ok.flags]).toEqual([OK | CHARGEABLE, OK]);
    expect([...ok.codes]).toEqual([0, 31]);
  });

  it('marks what is not a record UNREADABLE (reader slot, bad UTF-8, not JSON, not an object), with its 412 in its slot; a refused object is not', () => {
    const b = raw([JSON.stringify({ id: 7, ...lines }), '', BAD_UTF8, '{"id":1,', '[1,2]', '"text"', JSON.stringify({ id: 8, countrycode: 'DE' })]);
    const r = runFileBatch({ ctx: {} }, task({ op: 'lines', unit: 'line', ...b, readerErrors: [[1, 'Line 2: longer than 1048576 bytes; not read.']] }));
    const out = text(r.output).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out).toHaveLength(7);
    expect(out[0]).toMatchObject({ id: 7, addresslinestatuscode: 0 });
    expect(out[1]).toEqual({ errorcode: 412, errormessage: 'Line 2: longer than 1048576 bytes; not read.' });
    expect(out[2]).toEqual({ errorcode: 412, errormessage: 'Line 3: not valid UTF-8.' });
    expect(out[3]).toEqual({ errorcode: 412, errormessage: expect.stringMatching(/^Line 4: not valid JSON \(/) });
    expect(out[4]).toEqual({ errorcode: 412, errormessage: 'A request element must be a JSON object; got an array.' });
    expect(out[5]).toEqual({ errorcode: 412, errormessage: 'A request element must be a JSON object; got string.' });
    expect(out[6]).toMatchObject({ id: 8, errorcode: 428 });
    expect([...r.flags]).toEqual([OK | CHARGEABLE, UNREADABLE, UNREADABLE, UNREADABLE, UNREADABLE, UNREADABLE, 0]);
    expect([...r.codes]).toEqual([0, 412, 412, 412, 412, 412, 428]);
  });
});

describe('the record loop, UTF-8 checked once per batch', () => {
  it('finds a record that is not UTF-8 although the batch\'s bytes, back to back, are (a character cut at a record edge)', () => {
    // 'é' is C3 A9: the first record ends with C3, the second starts with A9; together they are valid UTF-8
    const first = Buffer.concat([Buffer.from('{"id":1,"city":"'), Buffer.from([0xc3])]);
    const second = Buffer.concat([Buffer.from([0xa9]), Buffer.from('"}')]);
    expect(Buffer.concat([first, second]).toString('utf8')).toBe('{"id":1,"city":"é"}');
    const r = runFileBatch({ ctx: {} }, task({ op: 'lines', unit: 'line', ...raw([JSON.stringify({ id: 0, ...lines }), first, second, JSON.stringify({ id: 3, ...lines, city: 'Köln' })]) }));
    const out = text(r.output).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out[1]).toEqual({ errorcode: 412, errormessage: 'Line 2: not valid UTF-8.' });
    expect(out[2]).toEqual({ errorcode: 412, errormessage: 'Line 3: not valid UTF-8.' });
    expect(out[3]).toMatchObject({ id: 3, addresslinestatuscode: 0 });
    expect(Object.values(out[3]!)).toContain('10115 Köln');
    expect([...r.flags]).toEqual([OK | CHARGEABLE, UNREADABLE, UNREADABLE, OK | CHARGEABLE]);
  });

  it('reads every valid record of a batch that holds one invalid byte sequence', () => {
    const r = runFileBatch({ ctx: {} }, task({ op: 'lines', unit: 'line', ...raw([JSON.stringify({ id: 'ß', ...lines }), BAD_UTF8, JSON.stringify({ id: 'ø', ...lines })]) }));
    const out = text(r.output).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out.map((o) => o.id ?? o.errormessage)).toEqual(['ß', 'Line 2: not valid UTF-8.', 'ø']);
  });
});

describe('the record loop, JSON-array elements', () => {
  it('sends rejected records to the errors text with their position when asked', () => {
    const r = runFileBatch({ ctx: {} }, task({ op: 'lines', unit: 'element', separateErrors: true, ...raw([JSON.stringify(lines), '{"countrycode":"DE"}', 'nope', '42']) }));
    expect(text(r.output).trimEnd().split('\n')).toHaveLength(1);
    expect(text(r.errors).trimEnd().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([
      { element: 2, errorcode: 428, errormessage: expect.stringContaining('sendercountrycode') },
      { element: 3, errorcode: 412, errormessage: expect.stringMatching(/^Element 3: not valid JSON/) },
      { element: 4, errorcode: 412, errormessage: 'A request element must be a JSON object; got number.' },
    ]);
    // an element that is JSON but not an object was read as an element: validation refuses it
    expect([...r.flags]).toEqual([OK | CHARGEABLE, 0, UNREADABLE, 0]);
  });
});

describe('the record loop, CSV records', () => {
  const header = ['id', 'countrycode', 'sendercountrycode', 'street', 'housenumber', 'zip', 'city'];
  const spec = (out: CsvTaskSpec['out']): CsvTaskSpec => ({
    delimiter: ',', encoding: 'utf-8', columns: header.length,
    bindings: header.slice(1).map((h, i): [string, number[]] => [h, [i + 1]]),
    resultKeys: RECORD_KEYS.lines, out,
  });
  const rows = [
    'a,DE,DE,Hauptstraße,1,10115,Berlin',
    'b,DE,DE,"Haupt"x,1,10115,Berlin',
    'c,DE,DE,Hauptstraße,1,10115,Berlin,extra',
    Buffer.concat([Buffer.from('d,DE,DE,Haupt'), Buffer.from([0xff]), Buffer.from(',1,10115,Berlin')]),
    'e,DE,,Hauptstraße,1,10115,Berlin',
    '',
  ];

  it('writes each row with its columns, the result columns and the error columns; unreadable rows flagged', () => {
    const b = raw(rows);
    const r = runFileBatch({ ctx: {} }, task({ op: 'lines', unit: 'record', csv: spec({ delimiter: ',', newline: '\n', excel: false }), ...b, readerErrors: [[5, 'Record 6: a reader error.']] }));
    const out = text(r.output).split('\n').slice(0, -1);
    expect(out).toHaveLength(6);
    const width = header.length + RECORD_KEYS.lines.length + 2;
    expect(out[0]!.startsWith('a,DE,DE,Hauptstraße,1,10115,Berlin,')).toBe(true);
    expect(out[0]!.endsWith(',,')).toBe(true);
    expect(out[1]).toMatch(/^b,DE,DE,Hauptx,1,10115,Berlin,+412,"?Record 2: bad quoting/);
    expect(out[2]).toMatch(/^c,DE,DE,Hauptstraße,1,10115,Berlin,+412,"?Record 3: more fields than the header's 7\.$/);
    expect(out[3]).toMatch(/^d,DE,DE,Haupt\uFFFD,1,10115,Berlin,+412,"?Record 4: not valid UTF-8/);
    expect(out[4]).toMatch(/^e,DE,,Hauptstraße,1,10115,Berlin,+428,/);
    expect(out[5]).toBe(`${','.repeat(width - 2)}412,Record 6: a reader error.`);
    expect([...r.flags]).toEqual([OK | CHARGEABLE, UNREADABLE, UNREADABLE, UNREADABLE, 0, UNREADABLE]);
    expect([...r.codes]).toEqual([0, 412, 412, 412, 428, 412]);
  });

  it('with --errors and --excel: rejected rows in the errors text, record number first, ; and CR LF', () => {
    const b = raw(rows.slice(0, 5));
    const r = runFileBatch({ ctx: {} }, task({ op: 'lines', unit: 'record', separateErrors: true, csv: spec({ delimiter: ';', newline: '\r\n', excel: true }), ...b }));
    expect(text(r.output).split('\r\n').slice(0, -1)).toHaveLength(1);
    const errs = text(r.errors).split('\r\n').slice(0, -1);
    expect(errs.map((l) => l.split(';')[0])).toEqual(['2', '3', '4', '5']);
    expect(errs[0]).toMatch(/^2;b;DE;DE;Hauptx;1;10115;Berlin;412;/);
  });

  it('a --report batch keeps the row as read as its input', () => {
    const b = raw(rows.slice(0, 2));
    const r = runFileBatch({ ctx: {} }, task({ op: 'lines', unit: 'record', csv: spec({ delimiter: ',', newline: '\n', excel: false }), ...b, report: { rows: 5, rankAtMost: 100, rejected: 5 } }));
    expect(r.report!.rows.map((row) => [row[0], row[1], row[2]])).toEqual([[1, -1, 'b,DE,DE,"Haupt"x,1,10115,Berlin']]);
  });
});
