/**
 * `addrflow serve`: the HTTP entrance. One engine pool, one billing store, graceful shutdown on
 * SIGTERM/SIGINT (new API requests get 503, in-flight ones finish and are charged, then the pool
 * and the store close).
 */
import { parseArgs } from 'node:util';
import { DEFAULT_BODY_LIMIT } from '../../adapters/http/server.ts';
import { runServer } from '../../adapters/http/run-server.ts';
import { loadIndexForOp } from '../load-index.ts';
import type { Command } from '../command.ts';
import { intOption } from '../options.ts';
import { checkCanListen, listenError } from '../fault.ts';

/** Seconds of warm-up by default: most of what V8 compiles in a new server's first seconds (docs/performance.md). */
const DEFAULT_WARM_UP_S = 2;

const usage = `usage: addrflow serve [--host 127.0.0.1] [--port 8080] [--index DIR] [--db URL] [--workers N]
                      [--body-limit BYTES] [--warm-up SECONDS]

  --host        address to listen on (default 127.0.0.1)
  --port        port (default 8080; 0 = any free port)
  --index       address index directory for /address/search (default: the embedded index)
  --db          billing store: sqlite:PATH (default sqlite:data/addrflow.sqlite) or postgres://…
                (env ADDRFLOW_DB)
  --workers     engine worker threads (default: number of cores; a single recipient block
                runs on the event loop)
  --body-limit  largest request body in bytes (default ${DEFAULT_BODY_LIMIT})
  --warm-up     seconds each engine thread runs made-up records (none charged) before the server
                listens, so that the first callers do not wait on V8's compiler (default
                ${DEFAULT_WARM_UP_S}; 0 = listen at once)

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
        'warm-up': { type: 'string' },
      },
      strict: true,
    });
    const port = intOption('port', values.port, 8080, 0, 65535);
    const workers = values.workers === undefined ? undefined : intOption('workers', values.workers, 1, 1, 256);
    const bodyLimit = intOption('body-limit', values['body-limit'], DEFAULT_BODY_LIMIT, 1024);
    const warmUpS = intOption('warm-up', values['warm-up'], DEFAULT_WARM_UP_S, 0, 60);
    await checkCanListen(values.host!, port, '--port');
    return runServer({
      host: values.host!, port, workers, bodyLimit, db: values.db, warmUpMs: warmUpS * 1000,
      loadIndex: () => loadIndexForOp('search', values.index),
      listenError: (err: unknown) => listenError(err, '--port'),
    });
  },
};

export default command;
