/**
 * The CSV bench input: `count` generated lines requests written as NDJSON, as CSV with a header
 * row and as that CSV gzipped. Every tenth record's `additionaldata` holds a quoted `,` and a
 * line break. Made once per count in `dir` and reused.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { once } from 'node:events';
import { generateLines } from '../../scripts/generate-requests.ts';
import { csvRow } from '../../src/csv/writer.ts';

export async function ensureCsvTrio(dir: string, count: number): Promise<{ nd: string; csv: string; gz: string }> {
  const base = `${dir}/lines-csvcmp-${count}`;
  const files = { nd: `${base}.ndjson`, csv: `${base}.csv`, gz: `${base}.csv.gz` };
  if (existsSync(files.gz)) return files;
  const cols = ['id', 'countrycode', 'sendercountrycode', 'street', 'housenumber', 'zip', 'city', 'statecode', 'countrynamelanguage', 'additionaldata'];
  const o = { delimiter: ',', newline: '\n', excel: false } as const;
  const ndOut = createWriteStream(files.nd);
  const csvOut = createWriteStream(files.csv);
  let a = '';
  let b = csvRow(cols, o);
  let i = 0;
  for (const line of generateLines(count, 42, 0)) {
    const r = JSON.parse(line) as Record<string, unknown>;
    if (i++ % 10 === 3) r.additionaldata = 'Hinterhaus, 2. OG\nlinks';
    a += JSON.stringify(r) + '\n';
    b += csvRow(cols.map((c) => (r[c] === undefined ? '' : String(r[c]))), o);
    if (a.length > 1 << 20) {
      if (!ndOut.write(a)) await once(ndOut, 'drain');
      if (!csvOut.write(b)) await once(csvOut, 'drain');
      a = b = '';
    }
  }
  ndOut.end(a);
  csvOut.end(b);
  await Promise.all([once(ndOut, 'close'), once(csvOut, 'close')]);
  const g = spawnSync('sh', ['-c', `gzip -c -6 '${files.csv}' > '${files.gz}'`]);
  if (g.status !== 0) throw new Error(`gzip failed: ${g.stderr}`);
  return files;
}
