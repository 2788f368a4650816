/**
 * A metered file job through the one metering path, in-process: an engine failure is an error
 * record in its slot, logged by position and never charged; the job id and the input hash are in
 * the checkpoint before anything is charged.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runFileJob } from '../../../src/adapters/file/job.ts';
import { InputDigest, readCheckpoint, checkInputPrefix } from '../../../src/adapters/file/checkpoint.ts';
import { Sink } from '../../../src/adapters/file/sink.ts';
import { Billing } from '../../../src/billing/billing.ts';
import { Meter } from '../../../src/billing/meter.ts';
import type { AddressIndex } from '../../../src/engine/index/index.ts';
import type { EnginePool } from '../../../src/pool/engine-pool.ts';
import { runFileBatch } from '../../../src/adapters/file/worker/run-file-batch.ts';
import type { RawTask } from '../../../src/adapters/file/worker/batch-task.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-fmeter-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The real worker code (the file-batch handler) over an index that is not one: every lookup throws. */
function brokenPool(): EnginePool {
  const state = { ctx: { index: {} as AddressIndex } };
  return {
    threads: 1,
    run: async (task: RawTask) => runFileBatch(state, task),
    destroy: async () => {},
  } as unknown as EnginePool;
}

async function* bytes(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text);
}

it('an engine failure is an error record (500) in its slot, reported by position, never charged; the checkpoint names the job and the input bytes', async () => {
  const billing = await Billing.open(`sqlite:${join(dir, 'b.sqlite')}`);
  try {
    const acc = await billing.createAccount({ credits: 1000, agreements: ['search'] });
    const input = ['{"id":1,"city":"Berlin"}', '{"id":2,"zip":"' + 'x'.repeat(300) + '"}', '{"id":3,"city":"Paris"}'].join('\n') + '\n';
    const out = join(dir, 'out.ndjson');
    const cp = join(dir, 'out.ndjson.checkpoint');
    const failures: number[][] = [];
    const digest = new InputDigest();
    const summary = await runFileJob({
      op: 'search', input: digest.wrap(bytes(input)), output: Sink.file(out), pool: brokenPool(), batchSize: 10,
      meter: new Meter(billing, acc.account, { kind: 'file', jobId: 'job-1' }),
      checkpoint: { path: cp, jobId: 'job-1', inputPrefix: () => digest.prefix(), intervalMs: 1 },
      onEngineFailures: (p) => failures.push(p),
    });
    expect(summary.end).toBe('done');
    const records = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(records[0]).toMatchObject({ id: 1, errorcode: 500 });
    expect(records[1]).toMatchObject({ id: 2, errorcode: 412 });
    expect(records[2]).toMatchObject({ id: 3, errorcode: 500 });
    expect(failures).toEqual([[1, 3]]);
    expect(summary.credits).toBe(0);
    expect(await billing.balance(acc.account)).toBe(1000);
    expect(await billing.store.ledgerCount(acc.account)).toBe(0);
    expect((await billing.findAccount({ id: acc.account }))!.reserved).toBe(0);
    const saved = readCheckpoint(cp)!;
    expect(saved.jobId).toBe('job-1');
    expect(saved.input.bytes).toBe(Buffer.byteLength(input));
    const copy = join(dir, 'in.ndjson');
    (await import('node:fs')).writeFileSync(copy, input);
    expect(checkInputPrefix(copy, saved.input)).toBeUndefined();
    (await import('node:fs')).writeFileSync(copy, input.replace('Paris', 'Parix'));
    expect(checkInputPrefix(copy, saved.input)).toMatch(/differ/);
  } finally {
    await billing.close();
  }
});
