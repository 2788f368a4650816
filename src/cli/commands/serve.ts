/**
 * `addrflow serve`: the HTTP entrance. One engine pool, one billing store, graceful shutdown on
 * SIGTERM/SIGINT (new API requests get 503, in-flight ones finish and are charged, then the pool
 * and the store close).
 */
import { parseArgs } from 'node:util';
import { Billing } from '../../billing/billing.ts';
import { describeDb } from '../../billing/open-store.ts';
import { HttpServer, DEFAULT_BODY_LIMIT } from '../../adapters/http/server.ts';
import { EnginePool } from '../../pool/engine-pool.ts';
import { createLogger } from '../../log.ts';
import { loadIndexForOp } from '../load-index.ts';
import type { Command } from '../command.ts';
import { intOption } from '../options.ts';
import { checkCanListen, listenError } from '../fault.ts';

const usage = `usage: addrflow serve [--host 127.0.0.1] [--port 8080] [--index DIR] [--db URL] [--workers N]
                      [--body-limit BYTES]

  --host        address to listen on (default 127.0.0.1)
  --port        port (default 8080; 0 = any free port)
  --index       address index directory for /address/search (default: the embedded index)
  --db          billing store: sqlite:PATH (default sqlite:data/addrflow.sqlite) or postgres://…
                (env ADDRFLOW_DB)
  --workers     engine worker threads (default: number of cores)
  --body-limit  largest request body in bytes (default ${DEFAULT_BODY_LIMIT})

Exit codes: 0 stopped by SIGTERM/SIGINT; 2 usage error; 5 the --index cannot be used; 6 the
billing store cannot be reached or --db is wrong; 13 a --db certificate file cannot be read;
14 the --port is in use or not allowed. Each failure is one coded line (docs/errors.md).`;

const command: Command = {
  usage,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '8080' },
        index: { type: 'string' },
        db: { type: 'string' },
        workers: { type: 'string' },
        'body-limit': { type: 'string' },
      },
      strict: true,
    });
    const port = intOption('port', values.port, 8080, 0, 65535);
    const workers = values.workers === undefined ? undefined : intOption('workers', values.workers, 1, 1, 256);
    const bodyLimit = intOption('body-limit', values['body-limit'], DEFAULT_BODY_LIMIT, 1024);
    const log = createLogger();

    await checkCanListen(values.host!, port, '--port');
    // the index first: an unusable one stops the server before it opens the store
    const indexBuffer = await loadIndexForOp('search', values.index);
    const billing = await Billing.open(values.db);
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
    const pool = await EnginePool.create({ ...(workers ? { threads: workers } : {}), ...(indexBuffer ? { indexBuffer } : {}) });
    const server = await HttpServer.create({ billing, runner: pool, logger: log, bodyLimit });
    let url: string;
    try {
      url = await server.listen(values.host, port);
    } catch (err) {
      // a busy port (EADDRINUSE): one coded line, exit 14, after closing what was opened
      clearInterval(sweeper);
      await server.close().catch(() => {});
      await pool.destroy();
      await billing.close();
      throw listenError(err, '--port');
    }
    log.info({ url, store: describeDb(values.db), workers: pool.threads }, 'addrflow listening');
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
  },
};

export default command;
