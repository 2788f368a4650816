/**
 * csv-spectrum (an npm package of CSV test cases written by others, with the JSON each case must
 * read as): every case through the project's splitter and field parser, cut between any two
 * bytes, and through the index build's file reader. Its quoted line breaks (newlines,
 * quotes_and_newlines) must stay one row under the resynchronisation rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordSplitter } from '../../src/csv/splitter.ts';
import { parseFields } from '../../src/csv/fields.ts';
import { readCsvFile } from '../../src/csv/reader.ts';

const root = dirname(createRequire(import.meta.url).resolve('csv-spectrum/package.json'));
const cases = readdirSync(join(root, 'csvs')).filter((f) => f.endsWith('.csv')).map((f) => f.slice(0, -4)).sort();

/** The rows as objects keyed by the header, as csv-spectrum's JSON has them. */
function objects(rows: string[][]): Array<Record<string, string>> {
  const [header, ...rest] = rows;
  return rest.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

function expected(name: string): Array<Record<string, string>> {
  const j = JSON.parse(readFileSync(join(root, 'json', `${name}.json`), 'utf8')) as unknown;
  const rows = (Array.isArray(j) ? j : [j]) as Array<Record<string, string>>;
  // An erratum of csv-spectrum 2.0.0: this case's JSON has another phone number (1234567890) than
  // its CSV (2095257564); the case is about the quotes and the U+FFFD in the next column. Only
  // that one value is taken from the CSV; every other value is compared as the JSON has it.
  if (name === 'location_coordinates' && rows[0]?.['Contact Phone Number'] === '1234567890') rows[0]['Contact Phone Number'] = '2095257564';
  return rows;
}

describe('csv-spectrum', () => {
  it('has its cases', () => {
    expect(cases).toContain('quotes_and_newlines');
    expect(cases.length).toBeGreaterThanOrEqual(12);
  });

  for (const name of cases) {
    it(`${name}: reads as its JSON says, cut anywhere`, async () => {
      const bytes = readFileSync(join(root, 'csvs', `${name}.csv`));
      const want = expected(name);
      for (let cut = 0; cut <= bytes.length; cut++) {
        const rows: string[][] = [];
        const s = new RecordSplitter(',');
        const emit = (b: Buffer, st: number, e: number, _line: number, problem?: unknown) => {
          expect(problem).toBeUndefined();
          const p = parseFields(b.toString('utf8', st, e), ',');
          expect(p.badQuoting).toBe(false);
          rows.push(p.fields);
        };
        s.push(Buffer.from(bytes.subarray(0, cut)), emit);
        s.push(Buffer.from(bytes.subarray(cut)), emit);
        s.end(emit);
        expect(objects(rows)).toEqual(want);
      }
      // The index build's reader: the same rows, no problem reported.
      let header: string[] = [];
      const rows: string[][] = [];
      await readCsvFile(join(root, 'csvs', `${name}.csv`), { delimiter: ',', header: true }, {
        onHeader(f) { header = f; },
        onRow(f) { rows.push(f); },
        onProblem(p, record, line) { throw new Error(`${name}: ${p} at record ${record} (line ${line})`); },
      });
      expect(objects([header, ...rows])).toEqual(want);
    });
  }
});
