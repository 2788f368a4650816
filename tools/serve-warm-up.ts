/**
 * What the warm-up before `serve` listens (--warm-up) does for the first callers: a new server
 * (SQLite store, --workers 1) with --warm-up N, then the 2,000 real addresses of the HTTP bench
 * (bench/support/real-addresses.ts, needs ../shared) at 10 connections, in three windows of 4 s
 * from the moment it listens: requests per second and p99 of each, and how long it took to listen.
 *
 *   node tools/serve-warm-up.ts [--warm-up 2] [--root DIR]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { realAddresses } from '../bench/support/real-addresses.ts';
import { createUnlimitedAccount, startServer, stopServer } from '../bench/support/serve-process.ts';

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
  const acc = createUnlimitedAccount(BIN, db);
  const t0 = performance.now();
  const { child, url: base } = await startServer([BIN, 'serve', '--port', '0', '--db', db, '--workers', '1', '--warm-up', warmUp], { stderr: 'inherit' });
  const listened = (performance.now() - t0) / 1000;
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const requests = real.map((q) => ({ method: 'POST' as const, headers, body: new URLSearchParams({ license: acc.license, guid: acc.guid, ...q }).toString() }));
  const windows: string[] = [];
  for (let w = 0; w < 3; w++) {
    const r = await autocannon({ url: base + '/address/search', connections: 10, duration: 4, requests });
    windows.push(`${w * 4}–${w * 4 + 4} s: ${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms`);
  }
  console.log(`--warm-up ${warmUp}: listening after ${listened.toFixed(1)} s; ${windows.join('; ')}`);
  await stopServer(child);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
