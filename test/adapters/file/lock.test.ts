/**
 * One job per output (issue 19), with real processes: `addrflow run` children, real signals (kill
 * -9 of the whole process group, SIGSTOP/SIGCONT to hold a job still while others try its files)
 * and a real unrelated process (`sleep`) whose pid a stale lock names.
 *
 * Deterministic without fixed waits: a test waits for the first job's lock file (or checkpoint)
 * to exist, then stops that job with SIGSTOP, so it is certainly still running while the others
 * try; SIGCONT lets it finish.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateLines } from '../../../scripts/generate-requests.ts';
import { BIN, runCli, type CliResult } from '../../helpers/cli.ts';
import { EXIT_LOCKED, EXIT_OUTPUT, EXIT_USAGE } from '../../../src/contract/exit-codes.ts';
import { CHECKPOINT_VERSION } from '../../../src/adapters/file/checkpoint.ts';
import { procStat } from '../../../src/adapters/file/lock.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-lock-'));
const input = join(dir, 'in.ndjson');
const small = join(dir, 'small.ndjson');
const RECORDS = 200_000;
let reference: string;
const children: ChildProcess[] = [];

/** The job's arguments; one worker, so that the jobs of a test leave CPU to the others. */
function jobArgs(out: string, ...extra: string[]): string[] {
  return ['run', '--op', 'lines', '--input', input, '--output', out, '--workers', '1', '--progress', 'off', ...extra];
}

/** `addrflow run` as its own process group (so kill -9 can reach all of it, as a terminal's ^C would). */
function start(args: string[]): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

async function waitFor(what: string, test: () => boolean, ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  while (!test()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * SIGSTOP to a job, answered once every thread of it is stopped (state T in each task's /proc stat):
 * kill() returns when the signal is sent, and a thread may still write for a moment after it.
 */
async function stopJob(pid: number): Promise<void> {
  process.kill(pid, 'SIGSTOP');
  // (a thread's id is a /proc entry of its own, read by the lock's own stat reader)
  await waitFor('every thread of the job stopped', () => readdirSync(`/proc/${pid}/task`).every((t) => {
    const stat = procStat(Number(t));
    return typeof stat !== 'object' || /^[Tt]$/.test(stat.state); // absent: the thread has ended
  }), 10_000);
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined; // absent, or (a checkpoint) between its temp file and its rename
  }
}

/** The pid in the lock of `path`, once it is one of `pids`. */
async function lockHolder(path: string, pids: number[]): Promise<number> {
  let pid = 0;
  await waitFor(`the lock of ${path}`, () => pids.includes(pid = Number(readJson(`${path}.lock`)?.pid)));
  return pid;
}

/** The line a refused job writes: one, coded, naming the path and the holder's pid. */
function expectRefused(r: CliResult, path: string, pid: number): void {
  expect(r.code, r.stderr).toBe(EXIT_LOCKED);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toContain(`addrflow run: ADDR_ERR_OUTPUT_LOCKED: ${path} is in use by job pid ${pid} (started `);
  expect(lines[0]).toMatch(/; wait for it or stop it$/);
}

/** A lock naming `pid`, as a job would write it, with the given start time. */
function writeLock(path: string, pid: number, startTime: string): void {
  const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  writeFileSync(`${path}.lock`, JSON.stringify({ pid, startTime, bootId, host: hostname(), started: '2026-01-01T00:00:00.000Z', command: 'test', token: 'test' }));
}

beforeAll(async () => {
  writeFileSync(input, [...generateLines(RECORDS, 19, 0)].join('\n') + '\n');
  writeFileSync(small, [...generateLines(200, 19, 0)].join('\n') + '\n');
  const ref = join(dir, 'ref.ndjson');
  const r = await runCli(jobArgs(ref));
  expect(r.code, r.stderr).toBe(0);
  reference = readFileSync(ref, 'utf8');
  expect(existsSync(`${ref}.lock`)).toBe(false); // released at the end
}, 180_000);

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('a job killed with -9 leaves its lock behind', () => {
  it('--resume takes the stale lock over and finishes byte-identical to an uninterrupted run', async () => {
    const out = join(dir, 'killed.ndjson');
    const args = jobArgs(out, '--checkpoint-interval', '50');
    const { child, done } = start(args);
    await waitFor('an interval checkpoint', () => Number(readJson(`${out}.checkpoint`)?.recordsDone) > 0);
    process.kill(-child.pid!, 'SIGKILL'); // the whole process group
    expect((await done).signal).toBe('SIGKILL');
    expect(readJson(`${out}.lock`)?.pid).toBe(child.pid); // left behind, naming a dead process
    expect(Number(readJson(`${out}.checkpoint`)?.recordsDone)).toBeLessThan(RECORDS);

    const resumed = await runCli([...args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).not.toMatch(/LOCKED/);
    expect(readFileSync(out, 'utf8') === reference).toBe(true);
    expect(existsSync(`${out}.lock`)).toBe(false);
    expect(existsSync(`${out}.checkpoint.lock`)).toBe(false);
  }, 180_000);
});

describe('three jobs racing for one output', () => {
  for (const stale of [false, true]) {
    it(`exactly one runs, the other two exit 11 naming its pid${stale ? ' (all three finding a stale lock of a dead process)' : ''}`, async () => {
      const out = join(dir, `race-${stale}.ndjson`);
      if (stale) {
        const dead = spawnSync('true').pid!; // a pid whose process has exited and been reaped
        writeLock(out, dead, '1');
      }
      const jobs = [0, 1, 2].map(() => start(jobArgs(out)));
      const pids = jobs.map((j) => j.child.pid!);
      const winner = await lockHolder(out, pids);
      await stopJob(winner); // held still: certainly running while the others try
      try {
        const losers = jobs.filter((j) => j.child.pid !== winner);
        expect(losers).toHaveLength(2);
        for (const l of losers) expectRefused(await l.done, out, winner);
      } finally {
        process.kill(winner, 'SIGCONT');
      }
      const won = await jobs.find((j) => j.child.pid === winner)!.done;
      expect(won.code, won.stderr).toBe(0);
      expect(readFileSync(out, 'utf8') === reference).toBe(true);
      expect(existsSync(`${out}.lock`)).toBe(false);
    }, 180_000);
  }
});

describe('a second job on the files of a running job', () => {
  it('is refused before it writes, truncates or charges anything; the first job\'s output is as uninterrupted', async () => {
    const out = join(dir, 'first.ndjson');
    const first = start(jobArgs(out, '--checkpoint-interval', '50'));
    await lockHolder(out, [first.child.pid!]);
    await waitFor('an interval checkpoint', () => Number(readJson(`${out}.checkpoint`)?.recordsDone) > 0);
    await stopJob(first.child.pid!);
    try {
      const errors = join(dir, 'second.errors');
      const report = join(dir, 'second.html');
      const db = join(dir, 'billing.sqlite');
      const written = readFileSync(out);
      const checkpoint = readFileSync(`${out}.checkpoint`);
      // metered: the billing store would be created on opening it, so its absence shows it never was
      const second = await runCli([...jobArgs(out, '--errors', errors, '--report', report, '--db', `sqlite:${db}`),
        '--license', 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', '--guid', '00000000-0000-0000-0000-000000000000']);
      expectRefused(second, out, first.child.pid!);
      expect(readFileSync(out).equals(written)).toBe(true);
      expect(readFileSync(`${out}.checkpoint`).equals(checkpoint)).toBe(true);
      for (const p of [errors, report, `${report}.tmp`, db, `${errors}.lock`, `${report}.lock`]) expect(existsSync(p), p).toBe(false);

      // so is --resume of it, and a job whose checkpoint (only) is the running job's
      expectRefused(await runCli(jobArgs(out, '--resume')), out, first.child.pid!);
      const other = join(dir, 'a-other.ndjson'); // sorts before it: its lock is taken first
      const r = await runCli(jobArgs(other, '--checkpoint', `${out}.checkpoint`));
      expect(r.code, r.stderr).toBe(EXIT_LOCKED);
      expect(r.stderr).toContain(`ADDR_ERR_OUTPUT_LOCKED: checkpoint ${out}.checkpoint is in use by job pid ${first.child.pid}`);
      expect(existsSync(other)).toBe(false);
      expect(existsSync(`${other}.lock`)).toBe(false); // the lock taken before the refused one is given back
    } finally {
      process.kill(first.child.pid!, 'SIGCONT');
    }
    const done = await first.done;
    expect(done.code, done.stderr).toBe(0);
    expect(readFileSync(out, 'utf8') === reference).toBe(true);
    expect(existsSync(`${out}.lock`)).toBe(false);
  }, 180_000);
});

describe('a lock whose pid is alive', () => {
  it('is taken over when that pid now belongs to an unrelated process (another start time), and refused when it is the holder', async () => {
    const sleeper = spawn('sleep', ['300'], { stdio: 'ignore' });
    children.push(sleeper);
    try {
      const stat = procStat(sleeper.pid!);
      if (typeof stat !== 'object') throw new Error('no /proc here');
      const out = join(dir, 'reused.ndjson');
      const args = ['run', '--op', 'lines', '--input', small, '--output', out, '--progress', 'off', '--workers', '0'];

      writeLock(out, sleeper.pid!, stat.startTime); // that process itself: a live holder
      expectRefused(await runCli(args), out, sleeper.pid!);
      expect(existsSync(out)).toBe(false);

      writeLock(out, sleeper.pid!, String(Number(stat.startTime) - 100)); // its pid, another process
      const r = await runCli(args);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(out, 'utf8').split('\n')).toHaveLength(201);
      expect(existsSync(`${out}.lock`)).toBe(false);
      expect(sleeper.exitCode).toBe(null); // untouched
    } finally {
      sleeper.kill('SIGKILL');
    }
  }, 60_000);
});

describe('what takes no lock, and a lock that cannot be made', () => {
  it('a device output (/dev/null) is not locked', async () => {
    const r = await runCli(['run', '--op', 'lines', '--input', small, '--output', '/dev/null', '--checkpoint', join(dir, 'devnull.cp'), '--progress', 'off', '--workers', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync('/dev/null.lock')).toBe(false);
  });

  it('an output in a missing directory: one coded line, exit 7', async () => {
    const r = await runCli(['run', '--op', 'lines', '--input', small, '--output', join(dir, 'nodir', 'out.ndjson'), '--progress', 'off']);
    expect(r.code, r.stderr).toBe(EXIT_OUTPUT);
    // said before any lock is made: the output itself cannot be written (src/adapters/file/output-check.ts)
    expect(r.stderr.trimEnd()).toMatch(/^addrflow run: ADDR_ERR_OUTPUT_UNWRITABLE: cannot write --output .*nodir\/out\.ndjson: the directory .*nodir does not exist: create it or choose another path \(ENOENT\)$/);
  });
});

describe('a checkpoint of another version', () => {
  it('--resume is refused with exit 2, naming the version found and the one expected', async () => {
    const out = join(dir, 'old.ndjson');
    writeFileSync(out, '');
    writeFileSync(`${out}.checkpoint`, JSON.stringify({ version: CHECKPOINT_VERSION - 1, op: 'lines', jobId: 'old', input: { bytes: 0, sha256: '' }, recordsDone: 0, outputBytes: 0, errorsBytes: 0 }));
    const r = await runCli(['run', '--op', 'lines', '--input', small, '--output', out, '--progress', 'off', '--resume']);
    expect(r.code).toBe(EXIT_USAGE);
    expect(r.stderr).toContain(`has version ${CHECKPOINT_VERSION - 1}, written by an older addrflow; this addrflow reads version ${CHECKPOINT_VERSION} only`);
    expect(r.stderr).toContain('run without --resume to start a new job');
    expect(existsSync(`${out}.lock`)).toBe(false);
  });
});
