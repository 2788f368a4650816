/**
 * HTTP A/B of two checkouts (e.g. this tree and a `git worktree add --detach DIR REV` of a base):
 * for each round, each checkout's `addrflow serve` (fresh SQLite store, unlimited account) takes
 * 2 s of warm-up and 6 s of autocannon at 10 connections on one single-record request; the rounds
 * alternate the checkouts, so both see the same machine.
 *
 *   node tools/http-ab.ts lines|search ROOT_A ROOT_B [ROUNDS]     (W=N: serve --workers N, default 1)
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const [op = 'lines', ...rest] = process.argv.slice(2);
const rounds = Number(rest.find((a) => /^\d+$/.test(a)) ?? 3);
const roots = rest.filter((a) => !/^\d+$/.test(a));
if ((op !== 'lines' && op !== 'search') || roots.length === 0) {
  console.error('usage: node tools/http-ab.ts lines|search ROOT_A ROOT_B [ROUNDS]');
  process.exit(2);
}
const SEARCH = { street: 'Rue de Rivoli', housenumber: '10', city: 'Paris', country: 'FRA' };
const LINES = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' };

async function measure(root: string): Promise<string> {
  const bin = join(root, 'bin', 'addrflow.ts');
  const dir = mkdtempSync(join(tmpdir(), 'addrflow-http-ab-'));
  const db = `sqlite:${join(dir, 'billing.sqlite')}`;
  try {
    const created = spawnSync(process.execPath, [bin, 'accounts', 'create', '--unlimited', '--agree', 'search,lines', '--db', db], { encoding: 'utf8' });
    if (created.status !== 0) throw new Error(created.stderr);
    const acc = JSON.parse(created.stdout) as { license: string; guid: string };
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', db, '--workers', process.env.W ?? '1'],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn' } });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /"listening":"([^"]+)"/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    const body = new URLSearchParams({ ...acc, ...(op === 'lines' ? LINES : SEARCH) }).toString();
    const opts = { url: `${url}/address/${op}`, method: 'POST' as const, body, connections: 10, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    await autocannon({ ...opts, duration: 2 });
    const r = await autocannon({ ...opts, duration: 6 });
    const exited = new Promise((res) => child.once('exit', res));
    child.kill('SIGTERM');
    await exited;
    return `${r.requests.average.toFixed(0)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms${r.non2xx ? `  NON-2XX ${r.non2xx}` : ''}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (let i = 0; i < rounds; i++) for (const root of roots) console.log(`${root}  ${op}  ${await measure(root)}`);
