/**
 * The BAN reader on a hand-written fixture in the published format (test/data/fixtures/README.md):
 * every usable row becomes an address, every other row is counted with its reason; gzip; a file
 * that is not BAN, and a BAN file without a usable row, are errors that name the file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBan } from '../../../src/data/readers/ban.ts';
import { collectSource } from '../../../src/data/readers/collect.ts';
import { runCli } from '../../helpers/cli.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/ban/adresses-sample.csv', import.meta.url));
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'addrflow-ban-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const expected = [
  { country: 'FR', street: 'Place du Pese Lait', housenumber: '6', postcode: '01640', city: "L'Abergement-de-Varey", district: '', lat: 46.005447, lon: 5.425179, altCities: ['ABERGEMENT-DE-VAREY (L )'] },
  { country: 'FR', street: 'Avenue de Périgueux', housenumber: '12 bis', postcode: '74600', city: 'Annecy', district: '', lat: 45.891544, lon: 6.104739, altCities: ['Seynod'] },
  { country: 'FR', street: 'Allée des Tilleuls; côté "Parc", bas', housenumber: '3a', postcode: '75004', city: 'Paris', district: '', lat: 48.855286, lon: 2.355731 },
];

describe('BAN reader (adresses-france.csv)', () => {
  it('reads numero + rep, the commune and its other names, quoted ; , "" and line breaks; counts every rejected row by reason', async () => {
    const { batch, counts } = await collectSource(readBan, FIXTURE);
    expect(batch.addresses).toEqual(expected);
    expect(counts.addresses).toBe(3);
    expect(counts.rejected).toEqual({ 'no-housenumber': 1, 'no-coordinates': 1, 'bad-coordinates': 1, 'no-street': 1, 'short-row': 1, 'bad-quoting': 1 });
  });

  it('reads the same file gzipped, and counts a row that is not UTF-8', async () => {
    const gz = join(dir, 'adresses-74.csv.gz');
    writeFileSync(gz, gzipSync(Buffer.concat([readFileSync(FIXTURE), Buffer.from('74010_x_00001;;1;;Rue de l'), Buffer.from([0xe9]), Buffer.from('glise;74000;74010;Annecy;;;1;2;6.12;45.9;entrée;;;ANNECY;;;;1;\n')])));
    const { batch, counts } = await collectSource(readBan, gz);
    expect(batch.addresses).toEqual(expected);
    expect(counts.rejected['bad-utf8']).toBe(1);
  });

  it('refuses a file that is not BAN, and a BAN file with no usable row, naming the file and the reasons', async () => {
    const bano = join(dir, 'bano-01.csv');
    writeFileSync(bano, '010010001A-1,1,Rue A,01400,Ville,OSM,46.1,4.9\n');
    await expect(collectSource(readBan, bano)).rejects.toThrow(/bano-01\.csv: not a BAN addresses CSV .* no numero, nom_voie/);
    const empty = join(dir, 'adresses-00.csv');
    const lines = readFileSync(FIXTURE, 'utf8').split('\n');
    writeFileSync(empty, [lines[0], ...lines.filter((l) => l.includes('99999'))].join('\n') + '\n');
    const { counts } = await collectSource(readBan, empty);
    expect(counts).toMatchObject({ addresses: 0, rejected: { 'no-housenumber': 1 } });
    const built = await runCli(['index', 'build', '--out', join(dir, 'idx0'), '--ban', empty]);
    expect(built.code).not.toBe(0);
    expect(built.stderr).toMatch(/ADDR_ERR_INDEX_SOURCE_EMPTY: .*adresses-00\.csv: yielded 0 addresses as ban \(rows rejected: 1 no-housenumber\)/);
  });

  it('builds an index with --ban that finds a BAN address', async () => {
    const f = join(dir, 'adresses-france.csv');
    copyFileSync(FIXTURE, f);
    const out = join(dir, 'idx');
    const built = await runCli(['index', 'build', '--out', out, '--ban', f]);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toMatch(/ban:.*adresses-france\.csv: 3 addresses; rejected: /);
    const r = await runCli(['run', '--op', 'search', '--index', out, '--progress', 'off'], { stdin: JSON.stringify({ address: '12 bis Avenue de Périgueux 74600 Annecy' }) + '\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ country_iso_2: 'FR', street: 'Avenue de Périgueux', housenumber: '12 bis', zip: '74600', matchlevel: 'housenumber' });
  }, 120_000);
});
