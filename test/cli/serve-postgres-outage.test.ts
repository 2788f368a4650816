/**
 * `addrflow serve` as a real process over a PostgreSQL cluster of the test's own, which is stopped
 * (`pg_ctl stop -m immediate`) and started again under requests: the process does not crash, API
 * requests meanwhile answer 503 ADDR_ERR_STORE_UNAVAILABLE, it serves 200 again without a restart,
 * and its log names the outage once when it begins and once when it ends. (The load, latency and
 * ledger checks with stop, kill -9 and SIGSTOP are test/adapters/http/postgres-outage.test.ts.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Billing } from '../../src/billing/billing.ts';
import { ERRORS } from '../../src/contract/errors.ts';
import { BIN } from '../helpers/cli.ts';
import { postForm } from '../helpers/http-server.ts';
import { PG_CLUSTER_AVAILABLE, PG_CLUSTER_SKIP_REASON, PgCluster } from '../helpers/pg-cluster.ts';

const LINES_OK = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' };
const title = PG_CLUSTER_AVAILABLE
  ? 'addrflow serve (real process) across a PostgreSQL outage [own cluster]'
  : `addrflow serve across a PostgreSQL outage — SKIPPED: ${PG_CLUSTER_SKIP_REASON}`;

describe.skipIf(!PG_CLUSTER_AVAILABLE)(title, () => {
  let cluster: PgCluster;
  let child: ChildProcess;
  let url: string;
  let stderr = '';
  let db: string;

  beforeAll(async () => {
    cluster = await PgCluster.create();
    db = cluster.url({ schema: 'serve_outage' });
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db, '--workers', '1'], {
      stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn' },
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const m = /\{"listening":"([^"]+)"\}/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await cluster?.destroy();
  });

  it('503 with the error body while the database is stopped, 200 again after it starts, one log line each way, no crash', async () => {
    const billing = await Billing.open(db);
    const acc = await billing.createAccount({ credits: 10_000, agreements: ['lines'] });
    await billing.close();
    const ask = () => postForm(`${url}/address/lines`, { license: acc.license, guid: acc.guid, ...LINES_OK }, { signal: AbortSignal.timeout(10_000) });
    expect((await ask()).status).toBe(200);

    cluster.stop('immediate');
    const during: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await ask();
      during.push(r.status);
      if (r.status === 503) expect(r.json()).toEqual({ errorcode: 503, errormessage: ERRORS.STORE_UNAVAILABLE.message });
      await sleep(150);
    }
    expect(during.every((s) => s === 503), String(during)).toBe(true);

    await cluster.start();
    let status = 0;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && status !== 200) {
      status = (await ask()).status;
      if (status !== 200) await sleep(100);
    }
    expect(status).toBe(200);
    await sleep(1500); // a maintenance poll after the return
    expect(child.exitCode, stderr).toBeNull();
    expect(stderr.match(/billing store unreachable/g) ?? [], stderr).toHaveLength(1);
    expect(stderr.match(/billing store reachable again/g) ?? [], stderr).toHaveLength(1);
    expect(stderr).not.toMatch(/request failed|uncaught|unhandled/i);

    const after = await Billing.open(db);
    try {
      // two requests charged (one before, one after); the ten refused ones cost nothing
      expect(await after.balance(acc.account)).toBe(10_000 - 2 * 20);
    } finally {
      await after.close();
    }
  });
});
