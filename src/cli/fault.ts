/**
 * Every way a command can fail, as the one line it prints and its exit code (docs/errors.md):
 * `CODE: what and the fix`. Anything not known here is ADDR_ERR_INTERNAL (exit 1), a bug, with
 * its stack only when ADDRFLOW_DEBUG=1 — a user never sees a stack trace by default.
 */
import { ERRORS, START_ERRORS, ServiceError, StartError } from '../contract/errors.ts';
import { StoreUnavailableError } from '../billing/store.ts';
import { IndexBuildError } from '../data/build-errors.ts';
import { OutputError } from '../adapters/file/sink.ts';
import { InputError } from '../adapters/file/input.ts';
import { UsageError } from './command.ts';
import { EXIT_INTERNAL, EXIT_STORE } from '../contract/exit-codes.ts';

export interface Fault {
  /** `CODE: message`, without the `addrflow CMD: ` prefix. */
  line: string;
  exit: number;
  /** Print the command's usage after the line. */
  usage?: boolean;
}

export const DEBUG_ENV = 'ADDRFLOW_DEBUG';

type Errno = Error & { code?: unknown; syscall?: unknown; address?: unknown; port?: unknown; path?: unknown };

const firstLine = (s: string) => s.split('\n')[0]!.trim();

/** Errno codes of a write that cannot succeed: the output cannot be written. */
const WRITE_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EFBIG']);

/** A full device under the billing store: SQLite's SQLITE_FULL (13), PostgreSQL's disk_full (53100). */
function isStoreFull(e: Errno & { errcode?: unknown }): boolean {
  return e instanceof Error && ((e.code === 'ERR_SQLITE_ERROR' && e.errcode === 13) || e.code === '53100');
}

/** What a listen error means, in words. */
function listenReason(code: string): string {
  return code === 'EADDRINUSE' ? 'the port is in use (another process listens on it): choose another port or stop that process'
    : code === 'EACCES' ? 'not allowed (ports below 1024 need privileges): choose a port from 1024'
    : code === 'EADDRNOTAVAIL' ? 'the host is not an address of this machine'
    : code;
}

/** A listen failure (`EADDRINUSE`, …) as ADDR_ERR_LISTEN, naming the flag that chose the port. */
export function listenError(err: unknown, flag: string): unknown {
  const e = err as Errno;
  if (!(e instanceof Error) || e.syscall !== 'listen' || typeof e.code !== 'string') return err;
  const where = typeof e.address === 'string' ? `${e.address}:${String(e.port ?? '')}` : String(e.port ?? '');
  return new StartError('LISTEN', `cannot listen on ${where} (${flag}): ${listenReason(e.code)} (${e.code})`, { cause: err });
}

/** The line and exit code of a failure. */
export function faultOf(err: unknown): Fault {
  const e = err as Errno;
  if (err instanceof UsageError || (typeof e?.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS'))) {
    return { line: `${START_ERRORS.USAGE.code}: ${firstLine(e.message)}`, exit: START_ERRORS.USAGE.exit, usage: true };
  }
  if (err instanceof StartError) return { line: `${err.code}: ${firstLine(err.message)}`, exit: err.exit };
  if (err instanceof IndexBuildError) return { line: firstLine(err.message), exit: err.exit };
  if (err instanceof StoreUnavailableError) {
    const c = err.cause instanceof Error ? err.cause as Errno : undefined;
    const msg = c ? firstLine(c.message) : '';
    const cause = c && typeof c.code === 'string' && !msg.includes(c.code) ? `${msg} (${c.code})` : msg;
    return { line: `${err.name}: the billing store cannot be reached${cause ? `: ${cause}` : ''}`, exit: ERRORS.STORE_UNAVAILABLE.exit ?? EXIT_STORE };
  }
  if (err instanceof ServiceError && err.def.exit !== undefined) {
    return { line: `${err.def.code}: ${err.status} ${firstLine(err.message)}`, exit: err.def.exit };
  }
  if (err instanceof OutputError) return { line: `${START_ERRORS.OUTPUT_UNWRITABLE.code}: ${firstLine(err.message)}`, exit: START_ERRORS.OUTPUT_UNWRITABLE.exit };
  if (err instanceof InputError) return { line: `${START_ERRORS.INPUT_UNREADABLE.code}: ${firstLine(err.message)}`, exit: START_ERRORS.INPUT_UNREADABLE.exit };
  if (isStoreFull(e)) {
    return { line: `${START_ERRORS.STORE_FULL.code}: the billing store cannot be written: ${firstLine(e.message)}; free space on its device`, exit: START_ERRORS.STORE_FULL.exit };
  }
  if (e instanceof Error && typeof e.code === 'string') {
    if (e.syscall === 'listen') return faultOf(listenError(err, 'port'));
    if (WRITE_FAILURES.has(e.code)) return faultOf(new OutputError(typeof e.path === 'string' ? e.path : 'the output', e as NodeJS.ErrnoException));
  }
  const message = e instanceof Error ? firstLine(e.message) || e.name : firstLine(String(err));
  return { line: `${ERRORS.INTERNAL.code}: ${message} (set ${DEBUG_ENV}=1 for the stack)`, exit: ERRORS.INTERNAL.exit ?? EXIT_INTERNAL };
}

/** The stack of an unexpected failure, when ADDRFLOW_DEBUG asks for it. */
export function debugStack(err: unknown, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const on = env[DEBUG_ENV] !== undefined && env[DEBUG_ENV] !== '' && env[DEBUG_ENV] !== '0';
  if (!on) return undefined;
  return err instanceof Error ? err.stack ?? String(err) : String(err);
}

/**
 * Fails fast with ADDR_ERR_LISTEN when `host:port` cannot be listened on, before a server spends
 * seconds loading its index and workers. The real listen still reports a port taken in between.
 */
export async function checkCanListen(host: string, port: number, flag: string): Promise<void> {
  if (port === 0) return;
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err) => reject(listenError(err, flag)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
