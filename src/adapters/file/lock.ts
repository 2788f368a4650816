/**
 * One job per file: a file job holds an exclusive lock on each file it writes (output, checkpoint,
 * errors, report) for its whole life, so that a second job on any of them is refused before it
 * writes, truncates or charges anything (issue 19: two jobs on one output both ran and wrote the
 * same file and checkpoint).
 *
 * The lock of `PATH` is the file `PATH.lock`, holding JSON that says who holds it. It is created
 * with link(2) from a fully written temp file: atomic, and no reader ever sees it half written.
 * A lock whose process is gone (or whose pid now belongs to another process: the start time in
 * /proc/PID/stat differs) is stale and taken over; see `takeOver` for why exactly one of several
 * racing takers wins. Locks are taken in sorted path order, so two jobs cannot deadlock.
 */
import { closeSync, fstatSync, fsyncSync, linkSync, lstatSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { StartError } from '../../contract/errors.ts';
import { OutputError } from './sink.ts';

/** What a lock file holds. */
export interface LockInfo {
  pid: number;
  /** The holder's start time in clock ticks since boot (/proc/PID/stat field 22); null off Linux. */
  startTime: string | null;
  /** /proc/sys/kernel/random/boot_id: a lock from before a reboot is stale whatever its pid. */
  bootId: string | null;
  host: string;
  /** When the lock was taken (ISO 8601). */
  started: string;
  /** The holder's command line, credentials and database URLs left out. */
  command: string;
  /** Tells this lock from any other one of the same process, so release removes only its own. */
  token: string;
}

/** A file a job writes, and what it is to the job (for the message naming it). */
export interface LockTarget {
  path: string;
  role: string;
}

/** The locks a job holds; `using` releases them, and so do process exit and a fatal signal. */
export interface JobLock extends Disposable {
  /** The lock files held. */
  readonly files: readonly string[];
  release(): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** A takeover guard unchanged this long belongs to a taker that died in the middle of it. */
const ABANDONED_GUARD_MS = 5_000;
/** How long a lock takes at most (guards in play), before the job gives up with a clear error. */
const ACQUIRE_DEADLINE_MS = 15_000;

/**
 * Locks the files of a job (`{ output, checkpoint, errors, report }`: what each is to the job,
 * and its path), in sorted order, or throws ADDR_ERR_OUTPUT_LOCKED (exit 11) naming
 * the first one another live job holds, having released any taken before it. stdout (`-`), absent
 * paths and paths that are not regular files (/dev/null, a FIFO) take no lock.
 */
export function lockJobFiles(files: Record<string, string | undefined>): JobLock {
  // by canonical path: every job takes its locks in the same order
  const byFile = new Map<string, LockTarget>();
  for (const [role, path] of Object.entries(files)) {
    if (path === undefined || path === '-' || !lockable(path)) continue;
    const file = canonical(path);
    if (!byFile.has(file)) byFile.set(file, { path, role });
  }
  const info = ownInfo();
  const held: string[] = [];
  const lock = new HeldLocks(held, info.token);
  try {
    for (const file of [...byFile.keys()].sort()) {
      const lockPath = `${file}.lock`;
      const holder = acquire(lockPath, info);
      if (holder) {
        const t = byFile.get(file)!;
        const elsewhere = holder.host !== info.host;
        throw new StartError('OUTPUT_LOCKED', `${t.role === 'output' ? '' : `${t.role} `}${t.path} is in use by job pid ${holder.pid}${elsewhere ? ` on host ${holder.host}` : ''} (started ${holder.started}; lock ${lockPath}); wait for it or stop it` +
          // a process on another host cannot be checked from here: only a person can tell it is gone
          (elsewhere ? ` (if that job is gone, remove ${lockPath})` : ''));
      }
      held.push(lockPath);
    }
  } catch (err) {
    lock.release();
    throw err;
  }
  return lock;
}

class HeldLocks implements JobLock {
  readonly files: string[];
  private readonly token: string;
  private released = false;
  private readonly onExit = (): void => this.release();
  private readonly onSignal = (sig: NodeJS.Signals): void => {
    // A command that handles the signal itself (run.ts stops gracefully, then releases on its way
    // out) is left to do so; otherwise the signal would kill the process with the lock in place.
    if (process.listenerCount(sig) > 1) return;
    this.release();
    process.kill(process.pid, sig); // no listener left: the signal's default action, as without us
  };

  constructor(files: string[], token: string) {
    this.files = files;
    this.token = token;
    process.on('exit', this.onExit);
    for (const s of SIGNALS) process.on(s, this.onSignal);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    process.off('exit', this.onExit);
    for (const s of SIGNALS) process.off(s, this.onSignal);
    for (const f of [...this.files].reverse()) {
      // only our own: a lock we lost (judged stale by mistake, removed by hand) is not ours to remove
      if (readLock(f)?.info?.token === this.token) rmSync(f, { force: true });
    }
  }

  [Symbol.dispose](): void {
    this.release();
  }
}

/**
 * Takes the lock at `lockPath`: undefined once held, or the live holder's info. A stale lock is
 * taken over.
 */
function acquire(lockPath: string, info: LockInfo): LockInfo | undefined {
  const tmp = `${lockPath}.${process.pid}.${info.token.slice(0, 8)}.tmp`;
  try {
    writeDurably(tmp, JSON.stringify(info) + '\n');
  } catch (err) {
    rmSync(tmp, { force: true });
    throw lockError(lockPath, err);
  }
  try {
    const deadline = Date.now() + ACQUIRE_DEADLINE_MS;
    while (Date.now() < deadline) {
      try {
        createExclusive(tmp, lockPath);
        return undefined;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw lockError(lockPath, err);
      }
      const current = readLock(lockPath);
      if (!current) continue; // released meanwhile: try again
      if (current.info && isLive(current.info)) return current.info;
      if (!current.info && Date.now() - current.mtimeMs < 1_000) {
        sleep(20); // unreadable and fresh: maybe being written by hand or by another tool
        continue;
      }
      const outcome = takeOver(lockPath, current, tmp);
      if (outcome === 'taken') return undefined;
      if (outcome === 'busy') sleep(20);
    }
    throw lockError(lockPath, new Error(`still contended after ${ACQUIRE_DEADLINE_MS / 1000} s`));
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Creates `lockPath` as a copy of the written `tmp`, failing with EEXIST when it exists: link(2),
 * atomic and never showing a half-written lock; where the filesystem has no hard links (vfat,
 * some network shares), an O_EXCL create, whose brief empty state readers wait out.
 */
function createExclusive(tmp: string, lockPath: string): void {
  try {
    linkSync(tmp, lockPath);
    return;
  } catch (err) {
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
  }
  const fd = openSync(lockPath, 'wx');
  try {
    writeSync(fd, readFileSync(tmp));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces the stale lock at `lockPath` (as read: its inode and bytes) with ours (`tmp`), such
 * that of several takers racing for it exactly one wins. A taker first creates the guard
 * `lockPath.takeover` with O_EXCL, so one taker at a time holds it. Holding it, the taker checks
 * that the lock is still the stale one it judged (same inode and bytes — each lock holds its own
 * token, so not a new lock that got a freed inode number) and only then renames its own over it.
 * Meanwhile no one else changes `lockPath`: other takers need the guard, a new job creates a lock
 * only where there is none, and the stale holder is gone. The others find the guard, wait, and
 * then read the winner's live lock. A guard left by a taker that died within those few
 * microseconds is removed once unchanged for a few seconds.
 */
function takeOver(lockPath: string, stale: { ino: number; text: string }, tmp: string): 'taken' | 'changed' | 'busy' {
  const guard = `${lockPath}.takeover`;
  try {
    closeSync(openSync(guard, 'wx'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw lockError(lockPath, err);
    removeAbandonedGuard(guard);
    return 'busy';
  }
  try {
    const now = readLock(lockPath);
    if (!now || now.ino !== stale.ino || now.text !== stale.text) return 'changed'; // judge again
    renameSync(tmp, lockPath);
    return 'taken';
  } finally {
    rmSync(guard, { force: true });
  }
}

function removeAbandonedGuard(guard: string): void {
  try {
    const st = lstatSync(guard);
    if (Date.now() - st.ctimeMs < ABANDONED_GUARD_MS) return;
    const again = lstatSync(guard);
    if (again.ino === st.ino && again.ctimeMs === st.ctimeMs) unlinkSync(guard);
  } catch {
    // gone already
  }
}

/** The lock file's holder (undefined info when it is not a lock we can read) and inode; undefined when absent. */
function readLock(lockPath: string): { info: LockInfo | undefined; text: string; ino: number; mtimeMs: number } | undefined {
  let fd: number;
  try {
    fd = openSync(lockPath, 'r');
  } catch {
    return undefined;
  }
  try {
    const { ino, mtimeMs } = fstatSync(fd); // of the file read, even if replaced meanwhile
    const text = readFileSync(fd, 'utf8');
    let info: LockInfo | undefined;
    try {
      const v = JSON.parse(text) as Partial<LockInfo>;
      if (Number.isSafeInteger(v.pid) && v.pid! > 0 && typeof v.token === 'string') info = v as LockInfo;
    } catch {
      // not JSON: junk left by something else, judged stale once not fresh
    }
    return { info, text, ino, mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** Whether the process that wrote `lock` still runs (as that process, not one that got its pid). */
export function isLive(lock: LockInfo): boolean {
  if (lock.host !== hostname()) return true; // cannot be checked from here: assume it runs
  const bootId = readBootId();
  if (lock.bootId && bootId && lock.bootId !== bootId) return false; // written before a reboot
  try {
    process.kill(lock.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: it exists, under another user
  }
  const stat = procStat(lock.pid);
  if (stat === 'absent') return false;
  if (stat === 'unknown') return true; // no /proc: the pid exists, which is all we can tell
  if (stat.state === 'Z') return false; // exited, not yet reaped by its parent
  return lock.startTime === null || lock.startTime === stat.startTime;
}

/** State and start time of a process from /proc/PID/stat. */
export function procStat(pid: number): { state: string; startTime: string } | 'absent' | 'unknown' {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && procAvailable()) return 'absent';
    return 'unknown';
  }
  // the command name (field 2) is in parentheses and may itself hold spaces or parentheses
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, startTime: fields[19]! };
}

function procAvailable(): boolean {
  try {
    return statSync('/proc/self/stat').isFile();
  } catch {
    return false;
  }
}

function readBootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

function ownInfo(): LockInfo {
  const own = procStat(process.pid);
  return {
    pid: process.pid,
    startTime: typeof own === 'object' ? own.startTime : null,
    bootId: readBootId(),
    host: hostname(),
    started: new Date().toISOString(),
    command: redactedCommand(process.argv.slice(1)),
    token: randomBytes(16).toString('hex'),
  };
}

/** The command line for the lock, without the values of flags that may carry secrets. */
function redactedCommand(argv: string[]): string {
  const secret = /^--(license|guid|db)(=|$)/;
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = secret.exec(a);
    if (!m) out.push(a);
    else if (m[2] === '=') out.push(`${a.slice(0, a.indexOf('='))}=…`);
    else {
      out.push(a, '…');
      i++;
    }
  }
  return out.join(' ');
}

/** Only regular files (or files still to be created) are locked: not /dev/null, a FIFO, a tty. */
function lockable(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return true;
  }
}

/** One name per file, so that `out.ndjson`, `./out.ndjson` and a path through a symlinked directory share a lock. */
function canonical(path: string): string {
  const abs = resolve(path);
  try {
    return resolve(realpathSync(dirname(abs)), basename(abs));
  } catch {
    return abs; // the directory does not exist: the job fails when it writes there
  }
}

function writeDurably(path: string, text: string): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A lock that cannot be created (no such directory, no permission, a read-only device): exit 7, as for the file itself. */
function lockError(path: string, err: unknown): StartError {
  return new StartError('LOCK_UNWRITABLE', new OutputError(`the lock ${path}`, err as NodeJS.ErrnoException).message, { cause: err });
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
