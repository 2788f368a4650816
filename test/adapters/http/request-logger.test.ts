import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { loggerOptions } from '../../../src/log.ts';
import { lazyChildLogger } from '../../../src/adapters/http/request-logger.ts';

function capture(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(loggerOptions({ level: 'info' }), new Writable({ write(chunk, _e, cb) { lines.push(JSON.parse(String(chunk))); cb(); } }));
  return { logger, lines };
}

describe("fastify's per-request logger, made on first use", () => {
  it('makes no child until a request logs, then writes what the child would have written (bindings, redaction, level)', () => {
    const { logger, lines } = capture();
    const child = vi.spyOn(logger, 'child');
    const log = lazyChildLogger(logger, { reqId: 'req-7' }, {});
    expect(child).not.toHaveBeenCalled();
    log.debug('below the level');
    log.error({ license: 'secret', n: 1 }, 'failed');
    log.warn('again');
    expect(child).toHaveBeenCalledTimes(1); // made once, on the first call, and kept
    child.mockRestore();
    logger.child({ reqId: 'req-7' }).error({ license: 'secret', n: 1 }, 'failed');
    const strip = ({ time: _t, ...rest }: Record<string, unknown>) => rest;
    expect(lines).toHaveLength(3);
    expect(strip(lines[0]!)).toEqual(strip(lines[2]!));
    expect(lines[0]).toMatchObject({ reqId: 'req-7', license: '[redacted]', n: 1, msg: 'failed', level: 50 });
    expect(lines[1]).toMatchObject({ reqId: 'req-7', msg: 'again', level: 40 });
  });

  it('answers level and child like the child logger', () => {
    const { logger, lines } = capture();
    const log = lazyChildLogger(logger, { reqId: 'req-8' }, {});
    expect(log.level).toBe('info');
    log.child({ op: 'search' }).info('nested');
    expect(lines[0]).toMatchObject({ reqId: 'req-8', op: 'search', msg: 'nested' });
  });
});
