/**
 * The shared CSV reader on real published CSV: the BANO files of ../shared/data/bano-fr-2015
 * (headerless, `,`, with some quoted fields), gzipped as published. Every row must come out with
 * BANO's 8 fields, none reported as malformed, and the row count must equal the file's line count
 * (BANO has no line break inside a field).
 */
import { expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describeWithSharedData, sharedDataPath } from '../helpers/shared-data.ts';
import { readCsvFile } from '../../src/csv/reader.ts';

describeWithSharedData('CSV reader on the published BANO files', ['bano-fr-2015'], () => {
  it('reads every row of every département file with its 8 fields, quoted ones included', async () => {
    const dir = sharedDataPath('bano-fr-2015');
    const files = readdirSync(dir).filter((f) => f.endsWith('.csv.gz')).sort();
    expect(files.length).toBeGreaterThan(0);
    let rows = 0;
    let quoted = 0;
    for (const f of files) {
      const path = `${dir}/${f}`;
      const lines = gunzipSync(readFileSync(path)).toString('utf8').split('\n').filter((l) => l !== '');
      quoted += lines.filter((l) => l.includes('"')).length;
      let n = 0;
      const widths = new Map<number, number>();
      const problems: string[] = [];
      await readCsvFile(path, { delimiter: ',', header: false }, {
        onRow(fields) {
          n++;
          widths.set(fields.length, (widths.get(fields.length) ?? 0) + 1);
        },
        onProblem(p, record) {
          problems.push(`${p} at ${record}`);
        },
      });
      expect(problems, f).toEqual([]);
      expect(n, f).toBe(lines.length);
      expect([...widths.keys()], f).toEqual([8]);
      rows += n;
    }
    expect(rows).toBeGreaterThan(100_000);
    expect(quoted).toBeGreaterThan(0);
  }, 120_000);
});
