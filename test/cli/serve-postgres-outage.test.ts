/**
 * `addrflow serve` as a real process over a PostgreSQL cluster of the test's own, which is stopped
 * (`pg_ctl stop -m immediate`) and started again under requests: the process does not crash, API
 * requests meanwhile answer 503 ADDR_ERR_STORE_UNAVAILABLE, it serves 200 again without a restart,
 * and its log names the outage once when it begins and once when it ends. (The load, latency and
 * ledger checks with stop, kill -9 and SIGSTOP are test/adapters/http/postgres-outage.test.ts.)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Billing } from '../../src/billing/billing.ts';
import { ERRORS } from '../../src/contract/errors.ts';
import { startServe, type ServeProcess } from '../helpers/cli.ts';
import { postForm } from '../helpers/http-server.ts';
import { PG_CLUSTER_AVAILABLE, PG_CLUSTER_SKIP_REASON, PgCluster } from '../helpers/pg-cluster.ts';

const LINES_OK = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' };
const title = PG_CLUSTER_AVAILABLE
  ? 'addrflow serve (real process) across a PostgreSQL outage [own cluster]'
  : `addrflow serve across a PostgreSQL outage — SKIPPED: ${PG_CLUSTER_SKIP_REASON}`;

describe.skipIf(!PG_CLUSTER_AVAILABLE)(title, () => {
  let cluster: PgCluster;
  let server: ServeProcess;
  let url: string;
  let db: string;
  const stderr = () => server.stderr();

  beforeAll(async () => {
    cluster = await PgCluster.create();
    db = cluster.url({ schema: 'serve_outage' });
    server = await startServe(['--db', db, '--workers', '1']);
    url = server.url;
  }, 120_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
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
    expect(server.child.exitCode, stderr()).toBeNull();
    expect(stderr().match(/billing store unreachable/g) ?? [], stderr()).toHaveLength(1);
    expect(stderr().match(/billing store reachable again/g) ?? [], stderr()).toHaveLength(1);
    expect(stderr()).not.toMatch(/request failed|uncaught|unhandled/i);

    const after = await Billing.open(db);
    try {
      // two requests charged (one before, one after); the ten refused ones cost nothing
      expect(await after.balance(acc.account)).toBe(10_000 - 2 * 20);
    } finally {
      await after.close();
    }
  });
});
