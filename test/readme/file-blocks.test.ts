/**
 * The README's first blocks, run as written (issue 19): the main job of "Start here" (step 2) and
 * the block of "File jobs" (an index build from the Liechtenstein extract, a search through stdin
 * on it, a lines job with an output file and a report). The commands are read from README.md
 * itself, so the README and this test cannot drift.
 *
 * What the test changes, and why:
 *  - `npx addrflow` runs bin/addrflow.ts with the project's Node (what npx resolves to in a clone
 *    after the set-up);
 *  - `.cache/li` and `/tmp/…` become paths in a temporary directory (parallel runs on one machine
 *    must not share them), and `../shared/data` the data directory of this run;
 *  - the set-up (`npm ci`) and `npm test` are not run: CI runs exactly those around this test.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, sharedDataDir } from '../../src/config/shared-data.ts';
import { BIN } from '../helpers/cli.ts';
import { describeWithSharedData } from '../helpers/shared-data.ts';

const README = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');

/** The shell commands of the first ```sh block after `heading`: continuations joined, comments dropped. */
function block(heading: string): string[] {
  const section = README.indexOf(heading);
  expect(section, `README section "${heading}"`).toBeGreaterThan(0);
  const open = README.indexOf('```sh\n', section);
  const close = README.indexOf('\n```', open + 6);
  return README.slice(open + 6, close).replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.replace(/\s+#\s.*$/, '').trim())
    .filter(Boolean);
}

function bash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', [
    'set -euo pipefail',
    'npx() { if [ "$1" = addrflow ]; then shift; node "$ADDRFLOW_BIN" "$@"; else echo "unexpected: npx $*" >&2; return 127; fi; }',
    script,
  ].join('\n')], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ADDRFLOW_BIN: BIN, ADDRFLOW_LOG_LEVEL: 'warn', PATH: `${join(PROJECT_ROOT, 'node_modules', '.bin')}:${process.env.PATH}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('README: Start here', () => {
  it('step 2, the main job on the embedded defaults, prints one record per request and exits 0', async () => {
    const lines = block('## Start here');
    const step2 = lines.filter((l) => l.startsWith('npx addrflow run '));
    expect(step2, 'one addrflow run in "Start here"').toHaveLength(1);
    const r = await bash(step2[0]!);
    expect(r.stderr).not.toMatch(/\n\s+at |EBADENGINE/);
    expect(r.code, r.stderr).toBe(0);
    const input = readFileSync(join(PROJECT_ROOT, 'examples', 'lines.ndjson'), 'utf8').split('\n').filter((l) => l.trim());
    const out = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out).toHaveLength(input.length);
    expect(out.some((o) => typeof o.addressline1 === 'string')).toBe(true);
  }, 120_000);
});

describeWithSharedData('README: the File jobs block', ['osm-liechtenstein-2024'], () => {
  it('builds the Liechtenstein index, finds Städtle 35 in Vaduz through stdin, writes a lines output and its report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'addrflow-readme-'));
    dirs.push(dir);
    const lines = block('### File jobs');
    expect(lines).toHaveLength(3);
    const script = lines.map((l) => l
      .replaceAll('.cache/li', join(dir, 'li'))
      .replaceAll('../shared/data', sharedDataDir())
      .replaceAll('/tmp/', `${dir}/`)).join('\n');
    const r = await bash(script);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout.trim().split('\n')[0]!) as Record<string, unknown>;
    expect(answer).toMatchObject({ id: 1, city: 'Vaduz', matchlevel: 'housenumber' });
    expect(existsSync(join(dir, 'lines.out'))).toBe(true);
    expect(readFileSync(join(dir, 'lines.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
  }, 300_000);
});
