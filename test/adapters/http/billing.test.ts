/**
 * Billing over HTTP (issue 12): safe retries with `Idempotency-Key` (SQLite and PostgreSQL), and
 * an engine failure as an uncharged error result logged with the request's id.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { Billing } from '../../../src/billing/billing.ts';
import { PostgresStore } from '../../../src/billing/postgres/store.ts';
import type { Op } from '../../../src/contract/params.ts';
import type { AddressIndex } from '../../../src/engine/index/index.ts';
import { runValidatedTask } from '../../../src/pool/run-validated.ts';
import type { ElementRunner } from '../../../src/adapters/http/api.ts';
import { chooseEngine, freshPgSchema, postForm, startTestServer, type TestServer } from '../../helpers/http-server.ts';
import { PG_SKIP_REASON, postgresReachable } from '../../helpers/postgres.ts';

const engine = await chooseEngine();
const NOTE = engine.kind === 'pool' ? '[engine: real pool]' : `[engine: stand-in — ${engine.reason}]`;
const pgUp = await postgresReachable();
afterAll(() => engine.close());

const LINES_OK = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '5', zip: '10115', city: 'Berlin' };
const SEARCH_OK = { city: 'Berlin', street: 'Unter den Linden', housenumber: '1', country: 'DEU' };

type Acc = { license: string; guid: string; account: string };
const post = (s: TestServer, op: Op, acc: Acc, fields: Record<string, string | number>, key?: string) =>
  postForm(`${s.url}/address/${op}`, { license: acc.license, guid: acc.guid, ...fields }, key === undefined ? {} : {
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key },
  });

async function idempotencySuite(servers: TestServer[], billing: Billing): Promise<void> {
  const [s1, s2] = [servers[0]!, servers[servers.length - 1]!];
  const a = await billing.createAccount({ credits: 10_000, agreements: ['lines'] });
  const b = await billing.createAccount({ credits: 10_000, agreements: ['lines'] });
  const batch = JSON.stringify([LINES_OK, { ...LINES_OK, city: 'Köln' }, { countrycode: 'DE' }]);

  // the first answer, then a repeat (on the other instance): same status, same body, not charged
  const first = await post(s1, 'lines', a, { batch, requestproof: 1, returnavailablecredits: 1 }, 'order-4711');
  expect(first.status).toBe(200);
  // the stored answer is a template filled with the balance after the debit, in the settle's transaction
  expect(first.json().map((e: { availablecredits?: string }) => e.availablecredits)).toEqual([String(10_000 - 40), String(10_000 - 40), undefined]);
  expect(await billing.balance(a.account)).toBe(10_000 - 40);
  const again = await post(s2, 'lines', a, { batch, requestproof: 1, returnavailablecredits: 1 }, 'order-4711');
  expect(again.status).toBe(200);
  expect(again.text).toBe(first.text);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(await billing.balance(a.account)).toBe(10_000 - 40);
  expect(await billing.store.ledgerCount(a.account)).toBe(2);

  // another account's same key is its own
  const other = await post(s1, 'lines', b, { batch, requestproof: 1 }, 'order-4711');
  expect(other.status).toBe(200);
  expect(other.json()[0].requestid).not.toBe(first.json()[0].requestid);
  expect(await billing.balance(b.account)).toBe(10_000 - 40);

  // the same key for another request: 409, nothing runs
  const reused = await post(s1, 'lines', a, { ...LINES_OK }, 'order-4711');
  expect(reused.status).toBe(409);
  expect(reused.json()).toEqual({ errorcode: 409, errormessage: expect.stringMatching(/different request/) });
  expect(await billing.balance(a.account)).toBe(10_000 - 40);

  // no key: every request is charged; a malformed key: 412
  await post(s1, 'lines', a, { ...LINES_OK });
  await post(s1, 'lines', a, { ...LINES_OK });
  expect(await billing.balance(a.account)).toBe(10_000 - 80);
  expect((await post(s1, 'lines', a, { ...LINES_OK }, 'bad key with spaces')).status).toBe(412);

  // an error answer is not kept: after a top-up the retry runs and is charged once
  const poor = await billing.createAccount({ credits: 0, agreements: ['lines'] });
  expect((await post(s1, 'lines', poor, { ...LINES_OK }, 'k-402')).status).toBe(402);
  await billing.topup({ id: poor.account }, 20);
  const paid = await post(s2, 'lines', poor, { ...LINES_OK, returnavailablecredits: 1, responseformat: 'xml' }, 'k-402');
  expect(paid.status).toBe(200);
  expect(paid.text).toContain('<availablecredits>0</availablecredits>');
  expect((await post(s1, 'lines', poor, { ...LINES_OK, returnavailablecredits: 1, responseformat: 'xml' }, 'k-402')).text).toBe(paid.text);
  expect(await billing.balance(poor.account)).toBe(0);

  // concurrent duplicates: 20 requests with one key at once, on both instances → one charge, one answer
  const c = await billing.createAccount({ credits: 10_000, agreements: ['lines'] });
  const dup = await Promise.all(Array.from({ length: 20 }, (_, i) =>
    post(servers[i % servers.length]!, 'lines', c, { ...LINES_OK, requestproof: 1 }, 'same-at-once')));
  expect(dup.map((r) => r.status)).toEqual(Array(20).fill(200));
  expect(new Set(dup.map((r) => r.text)).size).toBe(1);
  expect(await billing.balance(c.account)).toBe(10_000 - 20);
  expect(await billing.store.ledgerCount(c.account)).toBe(1);
  expect((await billing.store.findAccount({ id: c.account }))!.reserved).toBe(0);
}

describe(`Idempotency-Key ${NOTE}`, () => {
  it('SQLite: a repeat within 24 h gives the first answer and is not charged; other accounts, other requests, concurrent duplicates', async () => {
    const s = await startTestServer({ runner: engine.runner });
    try {
      await idempotencySuite([s], s.billing);
    } finally {
      await s.close();
    }
  });

  it.skipIf(!pgUp)(`PostgreSQL, two server instances: the same${pgUp ? '' : ` — SKIPPED: ${PG_SKIP_REASON}`}`, async () => {
    const pg = await freshPgSchema();
    const b1 = await Billing.fromStore(new PostgresStore(pg.url));
    const b2 = await Billing.fromStore(new PostgresStore(pg.url));
    const s1 = await startTestServer({ runner: engine.runner, billing: b1 });
    const s2 = await startTestServer({ runner: engine.runner, billing: b2 });
    try {
      await idempotencySuite([s1, s2], b1);
    } finally {
      await s1.close();
      await s2.close();
      await b1.close();
      await b2.close();
      await pg.drop();
    }
  });
});

/**
 * The real engine code (the pool's validated task → processValidated → lookup) over an index
 * that is not an index: the lookup throws, as a defect would.
 */
function brokenEngine(): ElementRunner {
  const state = { ctx: { index: {} as AddressIndex } };
  return {
    runValidated: async (op, elements) => runValidatedTask(state, { kind: 'validated', op, elements }).outcomes,
  };
}

describe('an engine failure is an error result, logged with the request id, never charged', () => {
  it('single mode: 500 without a body; batch: a 500 error element; the log names the request id', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write(chunk, _e, cb) { lines.push(String(chunk)); cb(); } }));
    const s = await startTestServer({ runner: brokenEngine(), serverOptions: { logger } });
    try {
      const a = await s.billing.createAccount({ credits: 1000, agreements: ['search'] });
      const single = await post(s, 'search', a, { ...SEARCH_OK });
      expect(single.status).toBe(500);
      expect(single.text).toBe('');
      const batch = await post(s, 'search', a, { batch: JSON.stringify([SEARCH_OK, { zip: 'x'.repeat(300) }]), requestproof: 1 });
      expect(batch.status).toBe(200);
      const items = batch.json();
      expect(items[0]).toEqual({ errorcode: 500, errormessage: expect.any(String) });
      expect(items[1].errorcode).toBe(412);
      expect(await s.billing.balance(a.account)).toBe(1000);
      expect(await s.billing.store.ledgerCount(a.account)).toBe(0);
      expect((await s.billing.store.findAccount({ id: a.account }))!.reserved).toBe(0);
      const failures = lines.map((l) => JSON.parse(l)).filter((l) => /engine failure/.test(l.msg));
      expect(failures).toHaveLength(2);
      for (const f of failures) expect(f.requestid).toMatch(/^[0-9a-f-]{36}$/);
      // the single's line is written by fastify's per-request logger (request-logger.ts): bound to its request
      expect(failures.some((f) => typeof f.reqId === 'string' && f.reqId !== '')).toBe(true);
    } finally {
      await s.close();
    }
  });
});
