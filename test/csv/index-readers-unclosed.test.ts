/**
 * The index build's CSV readers on a stray quote: the row it opens on is one `unclosed-quote`
 * reject, the build summary names its line, and every other row is read as before.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBano } from '../../src/data/readers/bano.ts';
import { readBan } from '../../src/data/readers/ban.ts';
import { countingSink, type SourceSink } from '../../src/data/source-sink.ts';
import { summaryLines } from '../../src/data/build-index.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'addrflow-csv-index-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nothing: SourceSink = { address() {}, line() {}, place() {}, postcode() {}, admin() {}, reject() {} };

describe('index readers and an unclosed quote', () => {
  it('BANO (no header, gzip): one unclosed-quote row naming line 10, the 299 others kept', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `90001000${i}-1,${i + 1},"Rue des Champs",90400,Andelnans,C+O,47.60${i % 10},6.86${i % 10}`);
    rows[9] = '900010009-1,10,"Rue des Champs,90400,Andelnans,C+O,47.601,6.861';
    const file = join(dir, 'bano-90.csv.gz');
    writeFileSync(file, gzipSync(rows.join('\n') + '\n'));
    const { sink, counts } = countingSink(nothing);
    await readBano(file, sink);
    expect(counts.addresses).toBe(299);
    expect(counts.rejected).toEqual({ 'unclosed-quote': 1 });
    expect(summaryLines([{ label: 'bano:x', counts }])).toEqual(['bano:x: 299 addresses; rejected: 1 unclosed-quote (line 10)']);
  });

  it('BAN (header, ;): lines count the header; several rejects name the first five', async () => {
    const header = 'id;numero;rep;nom_voie;code_postal;nom_commune;lon;lat';
    const rows = Array.from({ length: 40 }, (_, i) => `x${i};${i + 1};;Rue "Haute";75001;Paris;2.34;48.86`);
    for (const k of [2, 5, 8, 11, 14, 17]) rows[k] = `x${k};${k + 1};;"Rue Haute;75001;Paris;2.34;48.86`;
    const file = join(dir, 'adresses-75.csv');
    writeFileSync(file, [header, ...rows].join('\n') + '\n');
    const { sink, counts } = countingSink(nothing);
    await readBan(file, sink);
    expect(counts.addresses).toBe(34);
    expect(counts.rejected).toEqual({ 'unclosed-quote': 6 });
    expect(summaryLines([{ label: 'ban:x', counts }])[0]).toBe('ban:x: 34 addresses; rejected: 6 unclosed-quote (lines 4, 7, 10, 13, 16, …)');
  });
});
