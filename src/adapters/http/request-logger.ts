/**
 * Fastify's per-request logger (`req.log`), made only when a request logs.
 *
 * Fastify makes every request a pino child logger bound to its request id. With the service's
 * redaction (src/log.ts, wildcard paths), pino runs the redaction over those bindings for each
 * child: under single-record load that was the largest cost fastify's own request set-up added to
 * the event loop, for a logger that almost no request uses (request logging is off; only errors
 * log). This factory gives each request a stand-in that makes the same child
 * (`parent.child(bindings, options)`) on its first log call and passes every call on to it, so a
 * line that is logged is the line the child would have written.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, Logger } from 'pino';

type Log = (...args: unknown[]) => void;

class RequestLogger {
  private readonly parent: FastifyBaseLogger;
  private readonly bindings: Bindings;
  private readonly options: ChildLoggerOptions;
  private made: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.parent = parent;
    this.bindings = bindings;
    this.options = options;
  }

  private get log(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.log.level = level;
  }

  isLevelEnabled(level: Level): boolean {
    return (this.log as unknown as Logger).isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.log.child(bindings, options);
  }

  // on the prototype, not per instance: a request that never logs allocates only this object
  fatal(...args: unknown[]): void {
    const l = this.log;
    (l.fatal as Log).apply(l, args);
  }
  error(...args: unknown[]): void {
    const l = this.log;
    (l.error as Log).apply(l, args);
  }
  warn(...args: unknown[]): void {
    const l = this.log;
    (l.warn as Log).apply(l, args);
  }
  info(...args: unknown[]): void {
    const l = this.log;
    (l.info as Log).apply(l, args);
  }
  debug(...args: unknown[]): void {
    const l = this.log;
    (l.debug as Log).apply(l, args);
  }
  trace(...args: unknown[]): void {
    const l = this.log;
    (l.trace as Log).apply(l, args);
  }
  silent(): void {}
}

/** Fastify's `childLoggerFactory`: the request's child logger, made on first use. */
export function lazyChildLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
