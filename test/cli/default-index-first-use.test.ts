/**
 * The embedded default index is built on first use (a few seconds): the command says so on stderr,
 * once; the next run reads what the first one wrote and says nothing of it.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const cache = mkdtempSync(join(tmpdir(), 'addrflow-first-use-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

describe('the embedded default index on first use', () => {
  it('says it is building the index, once; the next run reads it', async () => {
    const env = { ADDRFLOW_CACHE_DIR: cache };
    const first = await runCli(['run', '--op', 'search', '--progress', 'off'], { stdin: '{"address":"Wien"}\n', env });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('"city":"Wien"');
    expect(first.stderr).toMatch(/^addrflow: building the embedded default index on first use \(a few seconds, once: later runs read .*default-index-[^)]*\)$/m);
    expect(readdirSync(cache).some((d) => d.startsWith('default-index-'))).toBe(true);
    const again = await runCli(['run', '--op', 'search', '--progress', 'off'], { stdin: '{"address":"Wien"}\n', env });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).not.toContain('building the embedded default index');
  }, 120_000);
});
