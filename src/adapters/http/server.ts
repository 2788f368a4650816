/**
 * The HTTP entrance (fastify 5). Thin: it reads the form body, calls api.ts and writes the answer.
 *
 * Behaviour beyond the two operations (spec README item 9; choices written down in docs/http.md):
 * - `Access-Control-Allow-Origin: *` on every answer, including 404/405/413/415/500/503 and the
 *   raw 400 of an unparseable HTTP request;
 * - POST on `/address/search` and `/address/lines`; any other method there (OPTIONS included)
 *   answers 405 with `Allow: POST`; any other path answers 404, whatever the method, except
 *   `GET /healthz` and `GET /metrics`;
 * - a 500 has no body;
 * - maintenance (a flag in the billing store, polled) answers 503 with the error body on POST to
 *   both API paths; so does a request that arrives while the server is shutting down, and one
 *   that needs the billing store while it is unreachable (ADDR_ERR_STORE_UNAVAILABLE, thrown by the
 *   store within its timeout and rendered by api.ts like any ServiceError);
 * - bodies must be `application/x-www-form-urlencoded` (UTF-8); another media type or charset gives
 *   415, invalid UTF-8 412, a body over the limit 413, all with the error body.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { ERRORS, errorBody, ServiceError, type ErrorBody } from '../../contract/errors.ts';
import { OP_PATHS, OPS, type Op } from '../../contract/params.ts';
import type { Billing } from '../../billing/billing.ts';
import { EngineFailure, handleApi, type ElementRunner } from './api.ts';
import { FormError, parseForm, type FormFields } from './form-body.ts';
import { createMetrics, type HttpMetrics } from './metrics.ts';
import { renderErrorBody } from './render.ts';
import { lazyChildLogger } from './request-logger.ts';

export const DEFAULT_BODY_LIMIT = 32 * 1024 * 1024;

export interface HttpServerOptions {
  billing: Billing;
  runner: ElementRunner;
  /** pino logger (secrets redacted, see src/log.ts). Omit for no logging. */
  logger?: Logger;
  /** Largest accepted body in bytes (default 32 MiB: room for 5,000 elements). */
  bodyLimit?: number;
  /** How often the maintenance flag is read from the store (default 1000 ms). */
  maintenancePollMs?: number;
  /** Collect default process metrics (default true). */
  defaultMetrics?: boolean;
  /** How long a repeat of an Idempotency-Key waits for the first request's answer (default 30 s). */
  idempotencyWaitMs?: number;
}

const API_PATHS = new Map<string, Op>(OPS.map((op) => [OP_PATHS[op], op]));
const EMPTY_FORM: FormFields = Object.freeze(Object.create(null) as FormFields);
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export class HttpServer {
  readonly app: FastifyInstance;
  readonly metrics: HttpMetrics;
  private readonly opts: HttpServerOptions;
  private maintenance = false;
  /** Whether the last read of the store (the maintenance poll) succeeded. */
  private storeReachable = true;
  /** The read of the store in flight, and the one queued to begin after it (refreshMaintenance). */
  private reading: Promise<void> | undefined;
  private readAfter: Promise<void> | undefined;
  private closing = false;
  private poll: NodeJS.Timeout | undefined;
  private closed: Promise<void> | undefined;
  /**
   * API requests being handled. A client that hangs up does not stop its request: it is run,
   * settled and charged like any other, so close() waits for these as well as for connections.
   */
  private readonly inFlight = new Set<Promise<unknown>>();

  private constructor(opts: HttpServerOptions) {
    this.opts = opts;
    const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
    this.metrics = createMetrics(opts.defaultMetrics ?? true);
    this.app = (Fastify as unknown as (o: object) => FastifyInstance)({
      ...(opts.logger ? { loggerInstance: opts.logger, childLoggerFactory: lazyChildLogger } : { logger: false }),
      logController: new LogController({ disableRequestLogging: true }),
      bodyLimit,
      return503OnClosing: false,
      forceCloseConnections: 'idle',
      // A path that cannot be percent-decoded names no resource: 404 like any unknown path.
      frameworkErrors: (_err: Error, _req: FastifyRequest, reply: FastifyReply) => {
        reply.header('access-control-allow-origin', '*');
        return this.sendError(reply, errorBody('NOT_FOUND'));
      },
      clientErrorHandler: (_err: Error, socket: Socket) => {
        if (socket.writable) {
          socket.end('HTTP/1.1 400 Bad Request\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        } else {
          socket.destroy();
        }
      },
    });
    this.routes(bodyLimit);
  }

  static async create(opts: HttpServerOptions): Promise<HttpServer> {
    const s = new HttpServer(opts);
    opts.billing.commits.onBatch = (steps) => s.metrics.stepsPerCommit.observe(steps);
    opts.runner.onSinglesTask = (records) => s.metrics.singlesPerTask.observe(records);
    await s.refreshMaintenance();
    const every = opts.maintenancePollMs ?? 1000;
    s.poll = setInterval(() => void s.refreshMaintenance(), every);
    s.poll.unref();
    return s;
  }

  /**
   * Reads the maintenance flag now (the poll does this every `maintenancePollMs`), and resolves
   * once the flag is as the store held it when called. One read at a time: while the store hangs
   * (up to its timeout) reads must not pile up; a call during a read waits for it and for one more
   * read begun after it (shared by every call meanwhile), since the read in flight may have begun
   * before the change the caller wants to see (`addrflow maintenance on`, then a refresh).
   */
  refreshMaintenance(): Promise<void> {
    if (!this.reading) {
      this.reading = this.readMaintenance().finally(() => { this.reading = undefined; });
      return this.reading;
    }
    this.readAfter ??= this.reading.then(() => {
      this.readAfter = undefined;
      return this.refreshMaintenance();
    });
    return this.readAfter;
  }

  private async readMaintenance(): Promise<void> {
    try {
      this.maintenance = await this.opts.billing.getMaintenance();
      if (!this.storeReachable) this.opts.logger?.warn('billing store reachable again: serving');
      this.storeReachable = true;
      // Idempotency-Keys of requests an outage failed: free for their retries again
      const given = await this.opts.billing.retryAbandons();
      if (given) this.opts.logger?.info({ keys: given }, 'gave back the Idempotency-Keys of requests that failed in the outage');
    } catch (err) {
      // logged once per outage, not once per poll; requests meanwhile answer 503 (ADDR_ERR_STORE_UNAVAILABLE)
      if (this.storeReachable) this.opts.logger?.error({ err }, 'billing store unreachable: API requests answer 503 until it is back; keeping the last maintenance flag');
      this.storeReachable = false;
    }
  }

  get inMaintenance(): boolean {
    return this.maintenance;
  }

  private sendError(reply: FastifyReply, error: ErrorBody, format: 'json' | 'xml' = 'json'): FastifyReply {
    const r = renderErrorBody(format, error);
    return reply.code(error.errorcode).header('content-type', r.contentType).send(r.body);
  }

  private routes(bodyLimit: number): void {
    const app = this.app;
    const deps = {
      billing: this.opts.billing, runner: this.opts.runner,
      ...(this.opts.logger ? { log: this.opts.logger } : {}),
      ...(this.opts.idempotencyWaitMs !== undefined ? { idempotencyWaitMs: this.opts.idempotencyWaitMs } : {}),
    };

    // Collect any body as bytes; the POST handlers decide what they accept. Parsing here would let
    // a bad body turn a 404/405 into a 415.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_req, body, done) => done(null, body));

    // Hooks in callback style: an async hook costs every request a promise and a microtask turn.
    app.addHook('onRequest', (req, reply, done) => {
      reply.header('access-control-allow-origin', '*');
      (req as FastifyRequest & { t0?: bigint }).t0 = process.hrtime.bigint();
      if (req.method === 'POST' && API_PATHS.has(pathOf(req.url))) {
        if (this.closing) {
          reply.header('connection', 'close');
          this.sendError(reply, errorBody('MAINTENANCE', 'The service is shutting down; retry shortly.'));
          return; // answered: the request goes no further (a callback hook that sends does not call done)
        }
        if (this.maintenance) {
          this.sendError(reply, errorBody('MAINTENANCE'));
          return;
        }
      }
      done();
    });
    app.addHook('onSend', (_req, reply, payload, done) => {
      reply.header('access-control-allow-origin', '*');
      // While shutting down, answers close their connection so that kept-alive sockets drain.
      if (this.closing) reply.header('connection', 'close');
      done(null, payload);
    });
    app.addHook('onResponse', (req, reply, done) => {
      const t0 = (req as FastifyRequest & { t0?: bigint }).t0;
      const p = pathOf(req.url);
      const route = API_PATHS.has(p) || p === '/healthz' || p === '/metrics' ? p : 'other';
      if (t0 !== undefined) {
        this.metrics.requests.observe({ route, status: String(reply.statusCode) }, Number(process.hrtime.bigint() - t0) / 1e9);
      }
      done();
    });

    for (const op of OPS) {
      app.post(OP_PATHS[op], async (req, reply) => {
        const fields = withQueryExplain(this.readForm(req), req.url);
        const key = req.headers['idempotency-key'];
        if (Array.isArray(key)) throw new ServiceError('INVALID_PARAMETER', 'The Idempotency-Key header is given more than once.');
        const handling = handleApi(deps, op, fields, { idempotencyKey: key });
        this.inFlight.add(handling);
        const ans = await handling.finally(() => this.inFlight.delete(handling));
        if (ans.replayed) reply.header('idempotent-replayed', 'true');
        if (ans.records) this.metrics.records.inc({ op }, ans.records);
        if (ans.charged) this.metrics.charged.inc({ op }, ans.charged);
        if (ans.ranOn) this.metrics.singlesRanOn.inc({ op, thread: ans.ranOn });
        return reply.code(ans.status).header('content-type', ans.contentType).send(ans.body);
      });
    }

    app.get('/healthz', async (_req, reply) => reply.header('content-type', 'application/json; charset=UTF-8')
      .send(JSON.stringify({ status: 'ok', maintenance: this.maintenance, store: this.storeReachable ? 'ok' : 'unreachable' })));
    app.get('/metrics', async (_req, reply) => reply.header('content-type', this.metrics.registry.contentType)
      .send(await this.metrics.registry.metrics()));

    app.setNotFoundHandler((req, reply) => {
      if (API_PATHS.has(pathOf(req.url))) {
        return this.sendError(reply.header('allow', 'POST'), errorBody('METHOD_NOT_ALLOWED', `The request method ${req.method} is not allowed for ${pathOf(req.url)}; use POST.`));
      }
      return this.sendError(reply, errorBody('NOT_FOUND'));
    });

    app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
      if (err instanceof ServiceError) return this.sendError(reply, err.toBody());
      const sc = err.statusCode;
      if (sc === 413) return this.sendError(reply, errorBody('PAYLOAD_TOO_LARGE', `The request body is larger than ${bodyLimit} bytes.`));
      if (sc === 415) return this.sendError(reply, errorBody('UNSUPPORTED_MEDIA_TYPE'));
      if (sc !== undefined && sc >= 400 && sc < 500) {
        return this.sendError(reply, { errorcode: sc, errormessage: 'The request could not be read.' });
      }
      if (err instanceof EngineFailure) {
        req.log.error({ requestid: err.requestid, url: req.url, err }, 'engine failure: answered 500, nothing charged');
      } else {
        req.log.error({ err, url: req.url, method: req.method }, 'request failed');
      }
      return reply.code(ERRORS.INTERNAL.status).removeHeader('content-type').send();
    });
  }

  private readForm(req: FastifyRequest): FormFields {
    const body = req.body as Buffer | undefined;
    if (body === undefined || body === null || body.length === 0) return EMPTY_FORM;
    const ct = req.headers['content-type'] ?? '';
    if (!FORM_TYPE.test(ct)) throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `The request body must be application/x-www-form-urlencoded; got '${ct.slice(0, 100) || '(none)'}'.`);
    const cs = CHARSET.exec(ct);
    if (cs && !/^utf-?8$/i.test(cs[1]!)) throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `The request body must be UTF-8; got charset '${cs[1]!.slice(0, 40)}'.`);
    try {
      return parseForm(body);
    } catch (err) {
      if (err instanceof FormError) throw new ServiceError('INVALID_PARAMETER', err.message);
      throw err;
    }
  }

  /** Listens; returns the base URL. */
  async listen(host = '127.0.0.1', port = 8080): Promise<string> {
    await this.app.listen({ host, port });
    const a = this.app.server.address();
    const p = typeof a === 'object' && a ? a.port : port;
    return `http://${host.includes(':') ? `[${host}]` : host}:${p}`;
  }

  /**
   * Graceful: refuses new API requests (503), lets in-flight ones finish and be charged, closes
   * kept-alive connections as their answers go out. After `graceMs` the remaining connections are
   * cut (their requests' reservations are released by their own error path or, if the process
   * dies, by `releaseExpired` once their lease ends).
   */
  close(graceMs = 30_000): Promise<void> {
    this.closed ??= this.doClose(graceMs);
    return this.closed;
  }

  private async doClose(graceMs: number): Promise<void> {
    this.closing = true;
    if (this.poll) clearInterval(this.poll);
    const force = setTimeout(() => this.app.server.closeAllConnections(), graceMs);
    force.unref();
    try {
      await this.app.close();
      // connections are closed, but a request whose client hung up may still be running: its
      // settle must commit before the store closes (bounded by the same grace)
      const until = Date.now() + graceMs;
      while (this.inFlight.size > 0 && Date.now() < until) {
        await Promise.race([Promise.allSettled([...this.inFlight]), delay(until - Date.now(), undefined, { ref: false })]);
      }
    } finally {
      clearTimeout(force);
    }
  }
}

/**
 * `explain` may also be given in the query string (`POST /address/search?explain=1`): an
 * extension, not a spec parameter, so a client can ask for it without changing its form body.
 * The body's value, when given, wins.
 */
function withQueryExplain(fields: FormFields, url: string): FormFields {
  const q = url.indexOf('?');
  if (q < 0) return fields;
  const value = new URLSearchParams(url.slice(q + 1)).getAll('explain');
  if (value.length === 0 || fields.explain !== undefined) return fields;
  const out: FormFields = Object.assign(Object.create(null) as FormFields, fields);
  out.explain = value.length === 1 ? value[0]! : value;
  return out;
}
