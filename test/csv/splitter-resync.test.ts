/**
 * The splitter's resynchronisation rule (src/csv/splitter.ts): a quote that is never closed
 * costs the one row it opens on, named by its physical line, and every later row comes back
 * byte-identical, whatever the chunking; legitimate multi-line fields within the limits still
 * read as one record. Ends with a property test: N rows, k of them corrupted at random, at least
 * the N − k others back unchanged, no crash, no hang.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeRecordProblem, RecordSplitter, type RecordProblem, type SplitterLimits } from '../../src/csv/splitter.ts';
import { csvRow } from '../../src/csv/writer.ts';

interface Rec { text: string; line: number; problem?: RecordProblem }

/** Splits `bytes`, cut at the given offsets (each chunk a fresh copy, scribbled over after). */
function split(bytes: Buffer, cuts: number[] = [], limits?: SplitterLimits, delimiter = ','): Rec[] {
  const s = new RecordSplitter(delimiter, limits);
  const out: Rec[] = [];
  const emit = (b: Buffer, st: number, e: number, line: number, problem?: RecordProblem) => {
    out.push(problem ? { text: b.toString('utf8', st, e), line, problem } : { text: b.toString('utf8', st, e), line });
  };
  let at = 0;
  for (const c of [...new Set(cuts.filter((x) => x > 0 && x < bytes.length))].sort((a, b) => a - b)) {
    const chunk = Buffer.from(bytes.subarray(at, c));
    s.push(chunk, emit);
    chunk.fill(0x58);
    at = c;
  }
  s.push(Buffer.from(bytes.subarray(at)), emit);
  s.end(emit);
  return out;
}

const LIMITS = { maxRecordBytes: 1 << 20, maxQuotedLines: 100 };

/** The issue's file: 1,000 rows after a header, row 10 (line 11) opens a quote it never closes. */
function issueFile(): { text: string; rows: string[] } {
  const rows: string[] = [];
  for (let i = 0; i < 1000; i++) rows.push(`r${i},Hauptstrasse,${(i % 50) + 1},10117,Berlin,DE`);
  rows[9] = 'r9,"Hauptstrasse,10,10117,Berlin,DE,DE';
  return { text: ['id,street,housenumber,postcode,city,country', ...rows].join('\n') + '\n', rows };
}

describe('a quote that is never closed costs one row', () => {
  it("the issue's 1,000-row file: 999 rows unchanged and one unclosed-quote row naming line 11", () => {
    const { text, rows } = issueFile();
    for (const cuts of [[], [300, 301, 5000], [...Array(40).keys()].map((k) => k * 997)]) {
      const recs = split(Buffer.from(text), cuts).slice(1);
      expect(recs).toHaveLength(1000);
      const bad = recs.filter((r) => r.problem);
      expect(bad).toEqual([{ text: 'r9,"Hauptstrasse,10,10117,Berlin,DE,DE', line: 11, problem: { kind: 'unclosed-quote', why: 'lines', firstLine: 11, lastLine: 111 } }]);
      expect(recs.map((r) => r.text)).toEqual(rows);
      expect(recs.map((r) => r.line)).toEqual(rows.map((_, i) => i + 2));
    }
    expect(describeRecordProblem(split(Buffer.from(text)).find((r) => r.problem)!.problem!, LIMITS))
      .toBe('a quoted field opened on line 11 is still open after 100 lines (the most a quoted field may span); line 11 is read as one unreadable row and reading resumes on line 12');
  });

  it('followed by rows with quoted fields: the next row\'s opening quote is seen for what it is', () => {
    const text = 'a,b,c\nr1,"open,x\nr2,"Foo, bar",y\nr3,"Baz ""q""",z\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const recs = split(Buffer.from(text), [cut]);
      expect(recs.map((r) => r.text)).toEqual(['a,b,c', 'r1,"open,x', 'r2,"Foo, bar",y', 'r3,"Baz ""q""",z']);
      expect(recs[1]!.problem).toEqual({ kind: 'unclosed-quote', why: 'bad-close', firstLine: 2, lastLine: 3 });
      expect(recs.map((r) => r.line)).toEqual([1, 2, 3, 4]);
    }
  });

  it('in the last row: that row alone, also when lines without quotes follow it', () => {
    expect(split(Buffer.from('h\nok\n"open,x')).slice(1)).toEqual([
      { text: 'ok', line: 2 },
      { text: '"open,x', line: 3, problem: { kind: 'unclosed-quote', why: 'end', firstLine: 3, lastLine: 3 } },
    ]);
    const recs = split(Buffer.from('h\n"open,x\nc,d\r\ne,f'));
    expect(recs.slice(1)).toEqual([
      { text: '"open,x', line: 2, problem: { kind: 'unclosed-quote', why: 'end', firstLine: 2, lastLine: 4 } },
      { text: 'c,d', line: 3 },
      { text: 'e,f', line: 4 },
    ]);
    expect(describeRecordProblem(recs[1]!.problem!, LIMITS)).toBe('a quoted field opened on line 2 is not closed before the end of the input; line 2 is read as one unreadable row and reading resumes on line 3');
  });

  it('in the header row: reported like any record (the callers refuse it)', () => {
    const recs = split(Buffer.from('id,"street\nr1,x\n'));
    expect(recs).toEqual([
      { text: 'id,"street', line: 1, problem: { kind: 'unclosed-quote', why: 'end', firstLine: 1, lastLine: 2 } },
      { text: 'r1,x', line: 2 },
    ]);
  });

  it('past the byte limit across lines: the first line is the bad row, the rest is read again', () => {
    const long = 'y'.repeat(300);
    const text = `h\n"open,${long}\n${long}\n${long}\nafter,1\n`;
    for (const cuts of [[], [7], [100, 400, 700, 1000]]) {
      const recs = split(Buffer.from(text), cuts, { maxRecordBytes: 700 });
      expect(recs.map((r) => [r.text.slice(0, 10), r.problem?.why])).toEqual([
        ['h', undefined], ['"open,yyyy', 'bytes'], [long.slice(0, 10), undefined], [long.slice(0, 10), undefined], ['after,1', undefined],
      ]);
      expect(recs[1]!.line).toBe(2);
    }
  });

  it('past 1 MiB by default: one rejected row, every later row intact', () => {
    const line = `x,${'z'.repeat(4000)}`;
    const rows = Array.from({ length: 400 }, (_, i) => `${i},${line}`);
    const text = `h\n"never closed\n${rows.join("\n")}\n`; // 100 lines (400 KB) come before 1 MiB
    const recs = split(Buffer.from(text), [1 << 16, 1 << 18, 1 << 20]);
    expect(recs[1]!.problem?.why).toBe('lines');
    expect(recs.slice(2).map((r) => r.text)).toEqual(rows);
    const wide = Array.from({ length: 60 }, (_, i) => `${i},${'w'.repeat(30000)}`); // 60 lines > 1 MiB
    const recs2 = split(Buffer.from(`h\n"never closed\n${wide.join('\n')}\n`), [1 << 16, 1 << 20]);
    expect(recs2[1]).toEqual({ text: '"never closed', line: 2, problem: expect.objectContaining({ kind: 'unclosed-quote', why: 'bytes', firstLine: 2 }) });
    expect(recs2.slice(2).map((r) => r.text)).toEqual(wide);
  });

  it('a single line past the byte limit is too long (bytes dropped); reading resumes after its line end', () => {
    const text = `h\nx,${'q'.repeat(200)}\nnext,1\n"a\nb",2\n`;
    for (const cuts of [[], [50], [10, 100, 150]]) {
      expect(split(Buffer.from(text), cuts, { maxRecordBytes: 64 })).toEqual([
        { text: 'h', line: 1 },
        { text: '', line: 2, problem: { kind: 'too-long', firstLine: 2, lastLine: 2 } },
        { text: 'next,1', line: 3 },
        { text: '"a\nb",2', line: 4 },
      ]);
    }
    // A quote opened in such a line and never closed: the line is still the one bad row.
    const open = `h\nx,"${'q'.repeat(200)}\nnext,1\n`;
    for (const cuts of [[], [50], [10, 100, 150]]) {
      const recs = split(Buffer.from(open), cuts, { maxRecordBytes: 64 });
      expect(recs.map((r) => [r.line, r.problem?.kind])).toEqual([[1, undefined], [2, recs[1]!.problem!.kind], [3, undefined]]);
      expect(recs[2]!.text).toBe('next,1');
    }
  });

  it('legitimate multi-line fields within the limits read as one record; line numbers count every line', () => {
    const body = Array.from({ length: 99 }, (_, i) => `line ${i}, with a comma`).join('\n');
    const text = `h\r\n\r\n"${body}",x\r\n\nnext,1\r\n`;
    const recs = split(Buffer.from(text), [20, 500]);
    expect(recs).toEqual([{ text: 'h', line: 1 }, { text: `"${body}",x`, line: 3 }, { text: 'next,1', line: 103 }]);
    // One line more than the limit: the first line is the bad row.
    const over = Array.from({ length: 101 }, (_, i) => `l${i}`).join('\n');
    const r2 = split(Buffer.from(`h\n"${over}",x\nnext\n`));
    expect(r2[1]).toEqual({ text: '"l0', line: 2, problem: { kind: 'unclosed-quote', why: 'lines', firstLine: 2, lastLine: 102 } });
    expect(r2.at(-1)).toEqual({ text: 'next', line: 103 });
  });
});

describe('property: N rows, k corrupted, the N − k others come back byte-identical', () => {
  // Field values as exports have them: letters, digits, spaces, commas, quotes and line breaks
  // inside; a value does not start with the delimiter, a line break or a quote (the rule's stated
  // limit, see splitter.ts).
  const ch = fc.constantFrom('a', 'b', 'Z', '1', ' ', ',', '"', '\n', 'é', 'ß');
  const value = fc.tuple(fc.constantFrom('a', 'M', '7', 'ü', ' '), fc.array(ch, { maxLength: 8 })).map(([h, t]) => h + t.join(''));
  const field = fc.oneof({ weight: 3, arbitrary: value }, { weight: 1, arbitrary: fc.constant('') });
  const row = fc.array(field, { minLength: 1, maxLength: 5 }).map((fs) => csvRow(fs, { delimiter: ',', newline: '\n', excel: false }).slice(0, -1)).filter((r) => r !== '');
  // The corruptions: a quote opened at a field start and never closed (the row's own quotes
  // lost, as when a hand-edited cell loses its closing quote), a row cut short inside a quoted
  // field, and junk without quotes (line breaks included). Two corruptions can together look
  // like one legitimate multi-line field (one opens, a later one closes); no reader can tell
  // those from valid CSV, so corruptions here never add a closing quote.
  const corruption = fc.record({
    kind: fc.constantFrom('unclosed-at-field', 'cut-inside-quote', 'junk'),
    at: fc.nat(),
    junk: fc.array(fc.constantFrom(',', 'x', '\n', ' '), { minLength: 1, maxLength: 4 }).map((a) => a.join('')),
  });
  const noQuotes = (s: string) => s.replace(/"/g, "'");

  function corrupt(r: string, c: { kind: string; at: number; junk: string }): string {
    const at = c.at % (r.length + 1);
    const head = noQuotes(r.slice(0, at));
    switch (c.kind) {
      // (text follows the opened quote: one before a delimiter or a line end reads as a closing one)
      case 'unclosed-at-field': return `${head}${head === '' ? '' : ','}"${noQuotes(r.slice(at)).replace(/^(?=[,\n]|$)/, 'x')}`;
      case 'cut-inside-quote': return `${head}${head === '' ? '' : ','}"x`;
      default: return `${head}${c.junk}${noQuotes(r.slice(at))}`;
    }
  }

  it('holds for any rows, corruptions, line ends and chunking', () => {
    fc.assert(fc.property(
      fc.array(row, { minLength: 1, maxLength: 40 }),
      fc.array(fc.tuple(fc.nat(), corruption), { maxLength: 6 }),
      fc.boolean(), fc.boolean(), fc.array(fc.nat(), { maxLength: 6 }),
      (rows, corruptions, crlf, finalNewline, cutSeeds) => {
        const bad = new Map<number, string>();
        for (const [i, c] of corruptions) bad.set(i % rows.length, corrupt(rows[i % rows.length]!, c));
        const nl = crlf ? '\r\n' : '\n';
        const text = rows.map((r, i) => bad.get(i) ?? r).join(nl) + (finalNewline ? nl : '');
        const bytes = Buffer.from(text);
        const recs = split(bytes, cutSeeds.map((s) => s % (bytes.length + 1)));
        // The untouched rows, in order, are a subsequence of the records read without a problem.
        const good = recs.filter((r) => !r.problem).map((r) => r.text);
        let j = 0;
        for (const [i, r] of rows.entries()) {
          if (bad.has(i)) continue;
          while (j < good.length && good[j] !== r) j++;
          expect(j < good.length, `row ${i} ${JSON.stringify(r)} not read back from ${JSON.stringify(text)}`).toBe(true);
          j++;
        }
      },
    ), { numRuns: 400 });
  });
});
