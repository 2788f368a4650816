/**
 * Every command keeps Node's compile cache (bin/addrflow.ts): the modules of the command and of its
 * worker threads are stripped and compiled once, then read from the cache. Real processes, a
 * cache directory of their own.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/shared-data.ts';

const BIN = join(PROJECT_ROOT, 'bin/addrflow.ts');
const LINES = join(PROJECT_ROOT, 'examples/lines.ndjson');
const root = mkdtempSync(join(tmpdir(), 'addrflow-compile-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Files under `dir`, recursively (0 when it does not exist). */
function filesIn(dir: string): number {
  let n = 0;
  try {
    for (const e of readdirSync(dir, { recursive: true })) if (statSync(join(dir, String(e))).isFile()) n++;
  } catch {
    return 0;
  }
  return n;
}

/** Runs the CLI with `env` added; NODE_DISABLE_COMPILE_CACHE only if `env` gives it (Node reads any value, even empty, as "off"). */
function run(args: string[], env: Record<string, string>): { status: number | null; stderr: string } {
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.NODE_DISABLE_COMPILE_CACHE;
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...base, ...env } });
  return { status: r.status, stderr: r.stderr };
}

describe('the compile cache', () => {
  it('is written by a command, and more of it by a job whose worker threads load the engine', () => {
    const dir = join(root, 'cache');
    expect(run(['--version'], { NODE_COMPILE_CACHE: dir }).status).toBe(0);
    const cli = filesIn(dir);
    expect(cli).toBeGreaterThan(0);
    const job = run(['run', '--op', 'lines', '--input', LINES, '--output', join(root, 'out.ndjson'), '--workers', '2', '--progress', 'off'], { NODE_COMPILE_CACHE: dir });
    expect(job.status, job.stderr).toBe(0);
    // the job's own modules and its threads' (workers/engine.ts, the engine) join the CLI's
    expect(filesIn(dir)).toBeGreaterThan(cli);
  });

  it('is not written with NODE_DISABLE_COMPILE_CACHE=1, and the command works the same', () => {
    const dir = join(root, 'disabled');
    const r = run(['--version'], { NODE_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(r.status).toBe(0);
    expect(filesIn(dir)).toBe(0);
  });

  it('a cache directory that cannot be made is skipped without a word', () => {
    // (its parent is a file: ENOTDIR, as a read-only or missing place fails)
    const file = join(root, 'a-file');
    writeFileSync(file, '');
    const r = run(['--version'], { NODE_COMPILE_CACHE: join(file, 'cache') });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
});
