/**
 * What the warm-up before `serve` listens (--warm-up) does for the first callers: a new server
 * (SQLite store, --workers 1) with --warm-up N, then the 2,000 real addresses of the HTTP bench
 * (bench/support/real-addresses.ts, needs ../shared) at 10 connections, in three windows of 4 s
 * from the moment it listens: requests per second and p99 of each, and how long it took to listen.
 *
 *   node tools/serve-warm-up.ts [--warm-up 2] [--root DIR]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { realAddresses } from '../bench/support/real-addresses.ts';

const { values } = parseArgs({ options: { 'warm-up': { type: 'string' }, root: { type: 'string' } } });
const warmUp = values['warm-up'] ?? '2';
const BIN = join(resolve(values.root ?? '.'), 'bin', 'addrflow.ts');
const real = realAddresses();
if (real.length === 0) {
  console.error('serve-warm-up: needs ../shared (the held-out addresses of eval/lookup)');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'addrflow-warm-up-'));
const db = `sqlite:${join(dir, 'billing.sqlite')}`;
try {
  const acc = JSON.parse(spawnSync(process.execPath, [BIN, 'accounts', 'create', '--unlimited', '--agree', 'search,lines', '--db', db], { encoding: 'utf8' }).stdout) as { license: string; guid: string };
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db, '--workers', '1', '--warm-up', warmUp], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn' } });
  const base = await new Promise<string>((res, rej) => {
    let out = '';
    child.stdout!.on('data', (d) => { out += d; const m = /\{"listening":"([^"]+)"\}/.exec(out); if (m) res(m[1]!); });
    child.once('exit', (code) => rej(new Error(`serve exited ${code}`)));
  });
  const listened = (performance.now() - t0) / 1000;
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const requests = real.map((q) => ({ method: 'POST' as const, headers, body: new URLSearchParams({ license: acc.license, guid: acc.guid, ...q }).toString() }));
  const windows: string[] = [];
  for (let w = 0; w < 3; w++) {
    const r = await autocannon({ url: base + '/address/search', connections: 10, duration: 4, requests });
    windows.push(`${w * 4}–${w * 4 + 4} s: ${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms`);
  }
  console.log(`--warm-up ${warmUp}: listening after ${listened.toFixed(1)} s; ${windows.join('; ')}`);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
