/**
 * `addrflow serve --warm-up SECONDS` as a real process: before it listens, its engine threads run
 * made-up records, and nothing is charged for them; `--warm-up 0` listens at once; a wrong value
 * is a usage error (exit 2).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-warm-up-'));
const db = `sqlite:${join(dir, 'billing.sqlite')}`;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WARMED = 'engine warmed up on made-up records (none charged)';

describe('addrflow serve --warm-up', () => {
  it('warms the engine up before it listens, charging nothing; --warm-up 0 does not', async () => {
    const created = await runCli(['accounts', 'create', '--credits', '1000', '--agree', 'search,lines', '--db', db]);
    expect(created.code).toBe(0);
    const acc = JSON.parse(created.stdout) as { guid: string };
    const t0 = performance.now();
    const warm = await startServe(['--workers', '1', '--db', db, '--warm-up', '1'], { ADDRFLOW_LOG_LEVEL: 'info' });
    const warmStart = performance.now() - t0;
    warm.child.kill('SIGTERM');
    await warm.exited();
    const line = warm.stderr().split('\n').find((l) => l.includes(WARMED));
    expect(line, warm.stderr()).toBeDefined();
    const logged = JSON.parse(line!) as { ms: number; poolRecords: number; inlineRecords: number };
    expect(logged.ms).toBeGreaterThanOrEqual(1000);
    expect(logged.poolRecords).toBeGreaterThan(0);
    expect(logged.inlineRecords).toBeGreaterThan(0);
    expect(warmStart).toBeGreaterThanOrEqual(1000);
    const shown = JSON.parse((await runCli(['accounts', 'show', '--guid', acc.guid, '--db', db])).stdout) as { credits: number };
    expect(shown.credits).toBe(1000);

    const cold = await startServe(['--workers', '1', '--db', db, '--warm-up', '0'], { ADDRFLOW_LOG_LEVEL: 'info' });
    cold.child.kill('SIGTERM');
    await cold.exited();
    expect(cold.stderr()).not.toContain(WARMED);
  }, 60_000);

  it('a --warm-up that is not a whole number of seconds from 0 to 60 is a usage error', async () => {
    for (const v of ['abc', '61', '2.5']) {
      const r = await runCli(['serve', '--port', '0', '--db', db, '--warm-up', v]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/ADDR_ERR_USAGE.*--warm-up must be a whole number from 0 to 60/);
    }
    // (a value starting with '-' reads as an option)
    const r = await runCli(['serve', '--port', '0', '--db', db, '--warm-up', '-1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ADDR_ERR_USAGE/);
  });
});
