/**
 * The shared CSV module: record boundaries over bytes cut anywhere, field splitting, delimiter
 * detection, encodings and the writer, with property tests (writer → splitter → parser is the
 * identity for any fields, any delimiter, any chunking).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RecordSplitter, type RecordHandler } from '../../src/csv/splitter.ts';
import { parseFields } from '../../src/csv/fields.ts';
import { detectDelimiter } from '../../src/csv/detect.ts';
import { decodeBytes } from '../../src/csv/decode.ts';
import { csvCell, csvRow, EXCEL } from '../../src/csv/writer.ts';

/** Splits `bytes`, cut at the given offsets, into records (as text) with their flags. */
function split(bytes: Buffer, delimiter: string, cuts: number[] = [], max?: number) {
  const s = new RecordSplitter(delimiter, max);
  const out: Array<{ text: string; tooLong: boolean; unclosed: boolean }> = [];
  const emit: RecordHandler = (b, st, e, _line, problem) => {
    out.push({ text: b.toString('utf8', st, e), tooLong: problem?.kind === 'too-long', unclosed: problem?.kind === 'unclosed-quote' });
  };
  let at = 0;
  for (const c of [...cuts.filter((x) => x > 0 && x < bytes.length)].sort((a, b) => a - b)) {
    const chunk = Buffer.from(bytes.subarray(at, c)); // a fresh copy, then scribbled over, as a stream may
    s.push(chunk, emit);
    chunk.fill(0x58);
    at = c;
  }
  s.push(bytes.subarray(at), emit);
  s.end(emit);
  return out;
}

describe('record splitter', () => {
  it('ends records at LF and CR LF outside quotes, keeps quoted newlines, skips blank lines', () => {
    const text = 'a,b\r\n"x\ny","1,2"\n\n"he said ""hi""\r\n",z\nlast';
    expect(split(Buffer.from(text), ',').map((r) => r.text)).toEqual(['a,b', '"x\ny","1,2"', '"he said ""hi""\r\n",z', 'last']);
  });

  it('treats a quote inside an unquoted field as a character, as the field parser does', () => {
    const recs = split(Buffer.from('12" screen,x\nnext,y\n'), ',');
    expect(recs.map((r) => r.text)).toEqual(['12" screen,x', 'next,y']);
    expect(parseFields(recs[0]!.text, ',')).toEqual({ fields: ['12" screen', 'x'], badQuoting: false });
  });

  it('flags a quote that never closes (its first line only), and a record past the size limit', () => {
    expect(split(Buffer.from('a,b\n"open,c\nd\n'), ',').slice(1)).toEqual([{ text: '"open,c', tooLong: false, unclosed: true }, { text: 'd', tooLong: false, unclosed: false }]);
    expect(split(Buffer.from('a,b\n"open,c'), ',').at(-1)).toEqual({ text: '"open,c', tooLong: false, unclosed: true });
    const big = `x,${'y'.repeat(100)}\nok\n`;
    expect(split(Buffer.from(big), ',', [10, 50], 64)).toEqual([{ text: '', tooLong: true, unclosed: false }, { text: 'ok', tooLong: false, unclosed: false }]);
  });

  it('a doubled quote cut between two chunks stays a literal quote', () => {
    const text = '"a""b",c\nd\n';
    for (let cut = 1; cut < text.length; cut++) {
      expect(split(Buffer.from(text), ',', [cut]).map((r) => r.text)).toEqual(['"a""b",c', 'd']);
    }
  });
});

describe('field parser', () => {
  it('splits on the delimiter, unquotes, and reports bad quoting without losing text', () => {
    expect(parseFields('a;"b;c";"d""e"', ';')).toEqual({ fields: ['a', 'b;c', 'd"e'], badQuoting: false });
    expect(parseFields('a,', ',')).toEqual({ fields: ['a', ''], badQuoting: false });
    expect(parseFields('"a",', ',')).toEqual({ fields: ['a', ''], badQuoting: false });
    expect(parseFields('"a"b,c', ',')).toEqual({ fields: ['ab', 'c'], badQuoting: true });
    expect(parseFields('x,"open', ',')).toEqual({ fields: ['x', 'open'], badQuoting: true });
  });
});

describe('delimiter detection', () => {
  it('picks the most frequent candidate outside quotes', () => {
    expect(detectDelimiter('id;numero;nom_voie;"a,b,c,d"')).toBe(';');
    expect(detectDelimiter('a\tb\tc')).toBe('\t');
    expect(detectDelimiter('a|b|c,d')).toBe('|');
    expect(detectDelimiter('LON,LAT,NUMBER')).toBe(',');
    expect(detectDelimiter('single')).toBe(',');
  });
});

describe('encodings', () => {
  it('decodes Windows-1252 and Latin-1 and reports bytes that are not UTF-8', () => {
    const b = Buffer.from([0x4b, 0xf6, 0x6c, 0x6e, 0x20, 0x80]);
    expect(decodeBytes(b, 0, b.length, 'windows-1252')).toEqual({ text: 'Köln €', invalid: false });
    expect(decodeBytes(b, 0, b.length, 'latin1')).toEqual({ text: 'Köln \u0080', invalid: false });
    expect(decodeBytes(b, 0, b.length, 'utf-8').invalid).toBe(true);
    const u = Buffer.from('Köln', 'utf8');
    expect(decodeBytes(u, 0, u.length, 'utf-8')).toEqual({ text: 'Köln', invalid: false });
  });
});

describe('writer', () => {
  const plain = { delimiter: ',', newline: '\n', excel: false } as const;
  it('quotes only when needed', () => {
    expect(csvRow(['a', 'b c', 'x,y', 'say "hi"', 'l1\nl2', ''], plain)).toBe('a,b c,"x,y","say ""hi""","l1\nl2",\n');
    expect(csvCell('a;b', plain)).toBe('a;b');
    expect(csvCell('a\tb', { ...plain, delimiter: '\t' })).toBe('"a\tb"');
  });
  it('escapes formula cells for Excel, but not plain numbers', () => {
    expect(csvRow(['=1+1', '+49 30 1234', '-12.5', '@SUM(A1)', 'x;y', '-'], EXCEL)).toBe(`'=1+1;'+49 30 1234;-12.5;'@SUM(A1);"x;y";'-\r\n`);
  });
});

describe('properties', () => {
  const cell = fc.string({ unit: fc.constantFrom('a', 'é', '€', '"', ',', ';', '\t', '|', '\n', '\r', ' ', '1', '𝄞'), maxLength: 8 });
  const rows = fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 });
  it('write → split (cut anywhere) → parse gives back every row', () => {
    fc.assert(fc.property(rows, fc.constantFrom(',', ';', '\t', '|'), fc.array(fc.nat(400), { maxLength: 6 }), fc.boolean(), (rs, delimiter, cuts, crlf) => {
      const o = { delimiter, newline: crlf ? '\r\n' : '\n', excel: false } as const;
      // A row of one empty field is a blank line, which is not a record: the writer's caller
      // never writes one (an output row always has the result columns), so leave it out here.
      const kept = rs.filter((r) => !(r.length === 1 && r[0] === ''));
      const bytes = Buffer.from(kept.map((r) => csvRow(r, o)).join(''), 'utf8');
      const recs = split(bytes, delimiter, cuts);
      expect(recs.map((r) => parseFields(r.text, delimiter))).toEqual(kept.map((fields) => ({ fields, badQuoting: false })));
    }), { numRuns: 500 });
  });

  it('any bytes: every record is reported once, never lost between chunks', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(300), { maxLength: 5 }), (u, cuts) => {
      const bytes = Buffer.from(u);
      const whole = split(bytes, ',');
      expect(split(bytes, ',', cuts)).toEqual(whole);
    }), { numRuns: 500 });
  });
});
