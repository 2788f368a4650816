/**
 * Starts a real addrflow HTTP server on 127.0.0.1 with a random port, over a real billing store
 * (a fresh SQLite file, or a fresh PostgreSQL schema) and the real engine pool (`chooseEngine`,
 * which fails when the pool cannot start). The stand-in runner below is only for tests that need
 * an engine that is slow or fails on purpose (shutdown, the bodiless 500); they ask for it by name.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Billing } from '../../src/billing/billing.ts';
import { AUTH_CACHE_MS } from '../../src/billing/auth-cache.ts';
import { SqliteThreadStore } from '../../src/billing/sqlite/thread-store.ts';
import { PostgresStore } from '../../src/billing/postgres/store.ts';
import { HttpServer, type HttpServerOptions } from '../../src/adapters/http/server.ts';
import type { ElementRunner } from '../../src/adapters/http/api.ts';
import { httpRunner } from '../../src/adapters/http/inline-runner.ts';
import { singleRecordWork } from '../../src/adapters/http/single-work.ts';
import type { ThreadWork } from '../../src/billing/sqlite/thread-work.ts';
import type { EnginePool } from '../../src/pool/engine-pool.ts';
import type { Op } from '../../src/contract/params.ts';
import { emptySearchRecord, LINES_STATUS, isChargeableLinesStatus, type LinesStatusCode } from '../../src/contract/records.ts';
import { validateElement, type ValidElement } from '../../src/contract/validate.ts';
import type { Outcome } from '../../src/engine/process.ts';
import { dropSchema, pgUrlWithSchema, uniqueSchema } from './postgres.ts';

export interface EngineChoice {
  /** The real EnginePool (1 thread), single records on the event loop as `serve` runs them. */
  runner: ElementRunner;
  kind: 'pool';
  /** Whether `search` runs on the real engine with an index. */
  searchReady: boolean;
  /**
   * What `serve` gives the SQLite store's thread: single lookups run there, just before their
   * charge commits (src/adapters/http/single-work.ts). `startTestServer({ work })` mirrors serve.
   */
  singleWork: ThreadWork;
  reason?: string;
  close(): Promise<void>;
}

/**
 * The real pool (1 thread, with the default index when it loads), probed with one `lines`
 * element. When the pool cannot start or the probe fails this REJECTS, naming the cause: a suite
 * that asked for the engine must fail, never run against a stand-in (issue 12).
 * `indexBuffer` replaces the default index and `threads` the one worker thread (tests of this helper).
 */
export async function chooseEngine(opts: { indexBuffer?: SharedArrayBuffer; threads?: number } = {}): Promise<EngineChoice> {
  let indexBuffer: SharedArrayBuffer | undefined = opts.indexBuffer;
  let searchReason = '';
  if (!indexBuffer) {
    try {
      const { loadIndexForOp } = await import('../../src/cli/load-index.ts');
      indexBuffer = await loadIndexForOp('search', undefined);
    } catch (err) {
      searchReason = `default index not loadable: ${(err as Error).message.split('\n')[0]}`;
    }
  }
  const cannot = (err: unknown) => new Error(`the real engine pool cannot run: ${(err as Error).message.split('\n')[0]}`, { cause: err });
  let pool: EnginePool;
  try {
    const { EnginePool: Pool } = await import('../../src/pool/engine-pool.ts');
    pool = await Pool.create({ threads: opts.threads ?? 1, ...(indexBuffer ? { indexBuffer } : {}) });
  } catch (err) {
    throw cannot(err);
  }
  try {
    const [o] = await pool.runValidated('lines', [valid('lines', { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstr.', housenumber: '1', zip: '10115', city: 'Berlin' })]);
    if (!o?.ok) throw new Error(`probe element was rejected: ${JSON.stringify(o)}`);
  } catch (err) {
    await pool.destroy().catch(() => {});
    throw cannot(err);
  }
  let searchReady = false;
  if (indexBuffer) {
    try {
      const [o] = await pool.runValidated('search', [valid('search', { city: 'Berlin' })]);
      searchReady = !!o?.ok;
    } catch (err) {
      searchReason = `search probe failed: ${(err as Error).message.split('\n')[0]}`;
    }
  }
  // as `serve` runs it: single records on the event loop, batches on the pool (inline-runner.ts)
  return {
    runner: httpRunner(pool), kind: 'pool', searchReady, singleWork: singleRecordWork(indexBuffer),
    ...(searchReady ? {} : { reason: searchReason }), close: () => pool.destroy(),
  };
}

/** A probe element, validated as the HTTP adapter does before it runs one. */
function valid(op: Op, element: Record<string, string>): ValidElement {
  const v = validateElement(op, element);
  if (!v.ok) throw new Error(`probe element refused: ${v.error.errormessage}`);
  return v;
}

/**
 * Test double of the engine pool, for fault injection only (a slow or failing engine): the
 * elements the adapter validated, fixed records. lines: countrycode XX → status 10, US → 20, otherwise 0, or 1 when countrynamelanguage
 * is set to something other than de/fr/es/pt/nl and the mail is international.
 */
export function standInRunner(opts: { fail?: boolean; delayMs?: number } = {}): ElementRunner {
  return {
    async runValidated(op: Op, elements: ValidElement[]): Promise<Outcome[]> {
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      if (opts.fail) throw new Error('stand-in engine failure');
      return elements.map((v) => {
        if (op === 'search') {
          const rec = emptySearchRecord();
          const req = v.request as { city?: string; address?: string };
          rec.city = req.city ?? '';
          rec.matchlevel = 'general';
          rec.relevance = '0';
          return { ok: true, record: rec, chargeable: true, options: v.options } as Outcome;
        }
        const req = v.request as { countrycode: string; sendercountrycode: string; countrynamelanguage?: string; street?: string; city?: string };
        const cc = req.countrycode.toUpperCase();
        let code: LinesStatusCode = cc === 'XX' ? 10 : cc === 'US' ? 20 : 0;
        const lang = req.countrynamelanguage ?? '';
        if (code === 0 && cc !== req.sendercountrycode.toUpperCase() && lang && !['de', 'fr', 'es', 'pt', 'nl'].includes(lang)) code = 1;
        const ok = isChargeableLinesStatus(code);
        const record = {
          addressline1: ok ? (req.street ?? '') : '', addressline2: ok ? (req.city ?? '') : '', addressline3: '',
          addressline4: '', addressline5: '', addressline6: '',
          addresslinestatuscode: code, addresslinestatusmessage: LINES_STATUS[code],
        };
        return { ok: true, record, chargeable: ok, options: v.options } as Outcome;
      });
    },
  };
}

export interface TestServer {
  url: string;
  server: HttpServer;
  billing: Billing;
  close(): Promise<void>;
}

export interface TestServerOptions {
  runner: ElementRunner;
  /** 'sqlite' (fresh temp file) or a PostgreSQL URL with ?schema= (shared by several servers). */
  db?: 'sqlite' | { postgresUrl: string };
  /** Reuse an existing billing (a second server instance over the same store). */
  billing?: Billing;
  /** SQLite: the work its thread runs before a charge (`EngineChoice.singleWork`, as serve gives it); none by default. */
  work?: ThreadWork;
  serverOptions?: Partial<HttpServerOptions>;
}

export async function startTestServer(o: TestServerOptions): Promise<TestServer> {
  let cleanup = async () => {};
  let billing = o.billing;
  if (!billing) {
    if (o.db && typeof o.db === 'object') {
      billing = await Billing.fromStore(new PostgresStore(o.db.postgresUrl), { authCacheMs: AUTH_CACHE_MS });
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'addrflow-http-'));
      // as `addrflow serve` opens it (run-server.ts): the connection on its own thread (running single
      // lookups when given `work`), accounts kept ≤ 1 s
      billing = await Billing.fromStore(new SqliteThreadStore(join(dir, 'billing.sqlite'), o.work ? { work: o.work } : {}), { authCacheMs: AUTH_CACHE_MS });
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    }
  }
  const ownBilling = !o.billing;
  const server = await HttpServer.create({ billing, runner: o.runner, maintenancePollMs: 50, defaultMetrics: false, ...o.serverOptions });
  const url = await server.listen('127.0.0.1', 0);
  return {
    url, server, billing,
    async close() {
      await server.close();
      if (ownBilling) await billing.close();
      await cleanup();
    },
  };
}

export async function freshPgSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = uniqueSchema('http');
  return { url: pgUrlWithSchema(schema), drop: () => dropSchema(schema) };
}

/** POST a form (object → urlencoded) and read status, headers and text. */
export async function postForm(url: string, fields: Record<string, string | number>, init: RequestInit = {}) {
  const body = new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    ...init,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as any };
}
