/**
 * `addrflow serve` as a real process: the CLI creates accounts, `addrflow maintenance on|off`
 * switches a running server without a restart, and SIGTERM lets a 5,000-record batch in flight
 * finish and be charged before the process exits 0. Its log never shows a license or guid.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/shared-data.ts';
import { Billing } from '../../src/billing/billing.ts';
import { postForm } from '../helpers/http-server.ts';

const BIN = join(PROJECT_ROOT, 'bin', 'addrflow.ts');
const dir = mkdtempSync(join(tmpdir(), 'addrflow-serve-'));
const db = `sqlite:${join(dir, 'billing.sqlite')}`;
const LINES_OK = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' };

function cli(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'info' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

let child: ChildProcess;
let url: string;
let stderr = '';
let exited: Promise<number | null>;

beforeAll(async () => {
  child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db, '--workers', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr!.on('data', (d) => (stderr += d));
  exited = new Promise((res) => child.on('exit', (code) => res(code)));
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /\{"listening":"([^"]+)"\}/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('addrflow serve (real process)', () => {
  let acc: { license: string; guid: string; account: string };

  it('accounts create prints license and guid; the server accepts them', async () => {
    const r = cli('accounts', 'create', '--credits', '200000', '--agree', 'search,lines', '--db', db);
    expect(r.code).toBe(0);
    acc = JSON.parse(r.out);
    expect(acc.license).toMatch(/^[A-Z0-9]{5}(-[A-Z0-9]{5}){4}$/);
    expect(acc.guid).toMatch(/^[0-9a-f-]{36}$/);
    const res = await postForm(url + '/address/lines', { license: acc.license, guid: acc.guid, ...LINES_OK });
    expect(res.status).toBe(200);
    const show = JSON.parse(cli('accounts', 'show', '--guid', acc.guid, '--db', db).out);
    expect(show).toMatchObject({ credits: 200000 - 20, agreements: ['search', 'lines'], disabled: false });
  });

  it('maintenance on|off switches the running server without a restart', async () => {
    expect(cli('maintenance', 'on', '--db', db).out.trim()).toBe('{"maintenance":true}');
    const deadline = Date.now() + 5000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await postForm(url + '/address/lines', { license: acc.license, guid: acc.guid, ...LINES_OK })).status;
      if (status === 503) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(503);
    cli('maintenance', 'off', '--db', db);
    const deadline2 = Date.now() + 5000;
    while (Date.now() < deadline2) {
      status = (await postForm(url + '/address/lines', { license: acc.license, guid: acc.guid, ...LINES_OK })).status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });

  it('SIGTERM: a batch of 5,000 in flight finishes and is charged, then the process exits 0', async () => {
    const billing = await Billing.open(db);
    const before = await billing.balance(acc.account);
    const batch = Array.from({ length: 5000 }, (_, i) => ({ ...LINES_OK, housenumber: String(i + 1) }));
    const pending = postForm(url + '/address/lines', { license: acc.license, guid: acc.guid, batch: JSON.stringify(batch) });
    await new Promise((r) => setTimeout(r, 30));
    child.kill('SIGTERM');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.json()).toHaveLength(5000);
    expect(await exited).toBe(0);
    expect(await billing.balance(acc.account)).toBe(before - 5000 * 20);
    expect((await billing.store.findAccount({ id: acc.account }))!.reserved).toBe(0);
    await billing.close();
    expect(stderr).toContain('shutting down');
    expect(stderr).not.toContain(acc.license);
    expect(stderr).not.toContain(acc.guid);
  });
});
