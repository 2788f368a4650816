/**
 * `addrflow serve`, run: the HTTP adapter's start and stop — the index first (an unusable one
 * stops the server before the store opens), the engine pool, the billing store with its sweep of
 * reservations and Idempotency-Key answers a stopped process left (also while running, once per
 * lease), the server; SIGTERM/SIGINT drain the requests in flight, then close pool and store.
 * Before it listens, every thread that runs the engine warms up on made-up records, all at once
 * (src/pool/warm-up.ts: the pool's threads, the store's thread, and the event loop's recipient
 * blocks), so that the first callers do not wait on V8's compiler.
 * The CLI (src/cli/commands/serve.ts) parses the options and calls runServer.
 */
import { AUTH_CACHE_MS } from '../../billing/auth-cache.ts';
import { Billing } from '../../billing/billing.ts';
import { describeDb } from '../../billing/open-store.ts';
import { EnginePool } from '../../pool/engine-pool.ts';
import { createLogger } from '../../log.ts';
import { warmUp } from '../../pool/warm-up.ts';
import { singleRecordWork } from './single-work.ts';
import { httpRunner } from './inline-runner.ts';
import { HttpServer } from './server.ts';

export interface ServerOptions {
  host: string;
  port: number;
  /** Engine threads; undefined = one per core. */
  workers: number | undefined;
  bodyLimit: number;
  db: string | undefined;
  /** Loads the index (search). */
  loadIndex: () => Promise<SharedArrayBuffer | undefined>;
  /** How long each engine thread warms up before the server listens (0: not at all). */
  warmUpMs: number;
  /** The coded start error for a port that cannot be listened on. */
  listenError: (err: unknown) => unknown;
}

/** The event loop's share of the warm-up: recipient blocks are cheap, and it has requests to take. */
const INLINE_WARM_UP_MS = 300;

/** Serves until SIGTERM/SIGINT; answers the exit code. */
export async function runServer(o: ServerOptions): Promise<number> {
  const log = createLogger();

  // the index first: an unusable one stops the server before it opens the store
  const indexBuffer = await o.loadIndex();
  // SQLite on its own thread: the event loop never waits on the store; accounts read for
  // authentication are kept ≤ 1 s (docs/http.md, "Accounts"); the store's thread runs a single
  // lookup just before its charge commits: one hop, not two (single-work.ts; ADDRFLOW_HTTP_ONE_HOP=0
  // for the two hops)
  const work = process.env.ADDRFLOW_HTTP_ONE_HOP === '0' ? {} : { work: singleRecordWork(indexBuffer, o.warmUpMs) };
  // the pool's threads warm up while the store opens (and its thread warms up: single-work.ts)
  const pool = await EnginePool.create({ ...(o.workers ? { threads: o.workers } : {}), ...(indexBuffer ? { indexBuffer } : {}) });
  const started = performance.now();
  const poolWarm = pool.warmUp(indexBuffer ? ['search', 'lines'] : ['lines'], o.warmUpMs);
  poolWarm.catch(() => {}); // awaited below; a store that fails to open destroys the pool first
  let billing: Billing;
  try {
    billing = await Billing.open(o.db, { thread: true, authCacheMs: AUTH_CACHE_MS, ...work });
  } catch (err) {
    await pool.destroy();
    throw err;
  }
  // the event loop runs single recipient blocks itself (inline-runner.ts)
  const inline = warmUp({ ctx: {} }, ['lines'], Math.min(o.warmUpMs, INLINE_WARM_UP_MS));
  const pooled = await poolWarm;
  if (o.warmUpMs > 0) {
    log.info({ ms: Math.round(performance.now() - started), poolRecords: pooled.records, inlineRecords: inline.records }, 'engine warmed up on made-up records (none charged)');
  }
  const failed = pooled.failed ?? inline.failed;
  if (failed) log.warn({ failed }, 'the warm-up stopped early; serving all the same');
  const sweepStale = async () => {
    const released = await billing.releaseExpired();
    if (released) log.warn({ released }, 'released reservations whose lease expired (left by a stopped process)');
    const forgotten = await billing.sweepIdempotencyKeys();
    if (forgotten) log.info({ forgotten }, 'forgot Idempotency-Key answers older than 24 h');
  };
  await sweepStale();
  // Another instance sharing the store may die mid-request: sweep while running, too. Live
  // holders renew their leases, so only a dead process's reservations are released.
  const sweeper = setInterval(() => void sweepStale().catch((err) => log.error({ err }, 'stale reservation sweep failed')), billing.leaseMs);
  sweeper.unref();
  const server = await HttpServer.create({ billing, runner: httpRunner(pool), logger: log, bodyLimit: o.bodyLimit });
  let url: string;
  try {
    url = await server.listen(o.host, o.port);
  } catch (err) {
    // a busy port (EADDRINUSE): one coded line, exit 14, after closing what was opened
    clearInterval(sweeper);
    await server.close().catch(() => {});
    await pool.destroy();
    await billing.close();
    throw o.listenError(err);
  }
  log.info({ url, store: describeDb(o.db), workers: pool.threads }, 'addrflow listening');
  process.stdout.write(JSON.stringify({ listening: url }) + '\n');

  return await new Promise<number>((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'shutting down: finishing in-flight requests');
      let code = 0;
      clearInterval(sweeper);
      try {
        await server.close();
        await pool.destroy();
        await billing.close();
      } catch (err) {
        log.error({ err }, 'error during shutdown');
        code = 1;
      }
      log.info('stopped');
      log.flush();
      resolve(code);
    };
    process.once('SIGTERM', () => void stop('SIGTERM'));
    process.once('SIGINT', () => void stop('SIGINT'));
  });
}
