/**
 * `addrflow index build` end to end: sources streamed in command-line order, duplicates across
 * sources merged (first source wins), progress as log lines off a terminal, a summary per source
 * with rejected rows per reason, the peak temporary disk, and coded errors naming the file when a
 * source yields no address or cannot be read.
 */
import { EXIT_INPUT } from '../../src/contract/exit-codes.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'addrflow-build-'));
  mkdirSync(join(dir, 'fr'));
  // BANO: no header, `id,numero,voie,code_post,nom_comm,source,lat,lon`
  writeFileSync(join(dir, 'bano-90.csv'), [
    '900010003F-1,1,Rue de la Mairie,90100,Chavanatte,C+O,47.5849,7.0245',
    '900010003F-2,2,Rue de la Mairie,90100,Chavanatte,C+O,47.5850,7.0247',
    '900010003F-3,3,Rue de la Mairie,90100,Chavanatte,C+O,,',
    'short,row',
  ].join('\n') + '\n');
  // OpenAddresses: the same "1 Rue de la Mairie" 30 m away, another town spelling, plus one more
  writeFileSync(join(dir, 'fr', 'oa.csv'), [
    'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH',
    '7.0248,47.5851,1,RUE DE LA MAIRIE,,Chavanatte-Village,,,90100,a,1',
    '7.0250,47.5853,5,Rue de la Mairie,,Chavanatte,,,90100,b,2',
  ].join('\n') + '\n');
  // the official BAN file's form (`;`-separated, header), given to the wrong flag
  writeFileSync(join(dir, 'adresses-90.csv'), 'id;id_fantoir;numero;rep;nom_voie;code_postal;code_insee;nom_commune;lon;lat\n90001_0003_00001;90001_0003;1;;Rue de la Mairie;90100;90001;Chavanatte;7.0245;47.5849\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('addrflow index build', () => {
  it('merges the same address from two sources (first source wins), prints progress lines and a summary per source', async () => {
    const out = join(dir, 'idx');
    const r = await runCli(['index', 'build', '--out', out, '--bano', join(dir, 'bano-90.csv'), '--openaddresses', join(dir, 'fr', 'oa.csv'), '--tmp-dir', join(dir, 'tmp')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^\[read bano-90\.csv\].*\(done\)$/m);
    expect(r.stderr).toMatch(/^\[street documents\].*rows\/s.*\(done\)$/m);
    expect(r.stderr).toContain(`bano:${join(dir, 'bano-90.csv')}: 2 addresses; rejected: 1 no-coordinates, 1 short-row`);
    expect(r.stderr).toContain(`openaddresses:${join(dir, 'fr', 'oa.csv')}: 2 addresses; rejected: none`);
    expect(r.stderr).toContain('duplicates merged across sources: 1');
    expect(r.stderr).toMatch(/3 address points.*peak temporary disk [\d.]+ MiB/);
    const q = await runCli(['run', '--op', 'search', '--index', out, '--progress', 'off'], {
      stdin: [
        JSON.stringify({ street: 'Rue de la Mairie', housenumber: '1', zip: '90100', city: 'Chavanatte' }),
        JSON.stringify({ street: 'Rue de la Mairie', housenumber: '1', city: 'Chavanatte-Village' }),
      ].join('\n'),
    });
    expect(q.code, q.stderr).toBe(0);
    const [a, b] = q.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    // BANO was first: its point and spelling win
    expect(a).toMatchObject({ matchlevel: 'housenumber', street: 'Rue de la Mairie', city: 'Chavanatte', latitude: '47.5849', longitude: '7.0245' });
    expect(b).toMatchObject({ matchlevel: 'housenumber', latitude: '47.5849' });
  }, 120_000);
  it('fails with a coded error naming the file and the reasons when a source yields 0 addresses', async () => {
    const file = join(dir, 'adresses-90.csv');
    const r = await runCli(['index', 'build', '--out', join(dir, 'idx2'), '--bano', file]);
    expect(r.code).toBe(EXIT_INPUT);
    expect(r.stderr).toContain(`ADDR_ERR_INDEX_SOURCE_EMPTY: ${file}: yielded 0 addresses as bano (rows rejected: 2 short-row)`);
  }, 120_000);
  it('fails with a coded error when a source file is missing', async () => {
    const r = await runCli(['index', 'build', '--out', join(dir, 'idx3'), '--openaddresses', join(dir, 'nope.csv')]);
    expect(r.code).toBe(EXIT_INPUT);
    expect(r.stderr).toContain(`ADDR_ERR_INDEX_SOURCE_UNREADABLE: ${join(dir, 'nope.csv')}: no such file`);
  });
});
