/**
 * `addrflow consume` as a real child process: kill -9 mid-stream, start again, and the
 * exactly-once invariants still hold (read_committed output and the store ledger). Also the CLI's
 * refusal of bad credentials, its /metrics and /healthz, and a graceful SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCli, runCli, type CliResult } from '../../helpers/cli.ts';
import type { ChildProcess } from 'node:child_process';
import { describeWithKafka } from '../../helpers/kafka.ts';
import {
  checkInvariants, committedCount, createAccount, createTopics, mixedRecord, openHarness, produce, waitForCommitted,
  type Account, type Harness, type InputRecord, type Topics,
} from './worker-harness.ts';

await describeWithKafka('addrflow consume (child process)', (brokers) => {
  let h: Harness;
  let dir: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    h = await openHarness(brokers());
    dir = mkdtempSync(join(tmpdir(), 'addrflow-consume-'));
  });

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function args(topics: Topics, group: string, db: string, account: Account): string[] {
    return [
      'consume', '--brokers', brokers().join(','), '--group', group,
      '--input-topic', topics.input, '--results-topic', topics.results, '--ledger-topic', topics.ledger, '--dlq-topic', topics.dlq,
      '--license', account.license, '--guid', account.guid, '--db', db,
      '--workers', '1', '--metrics-port', '0', '--metrics-host', '127.0.0.1', '--session-timeout', '6000',
    ];
  }

  /** Starts the worker and waits for its start line (JSON on stdout, with the metrics URL). */
  async function launch(a: string[]): Promise<{ child: ChildProcess; done: Promise<CliResult>; metrics: string }> {
    const { child, done } = startCli(a);
    children.push(child);
    const metrics = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: string) => {
        out += d;
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve((JSON.parse(line) as { metrics: string }).metrics);
      });
      void done.then((r) => reject(new Error(`worker exited early (${r.code}/${r.signal}): ${r.stderr}`)));
    });
    return { child, done, metrics };
  }

  it('refuses bad credentials before consuming anything (exit 4)', async () => {
    const topics = await createTopics(h, 'refused', 1);
    const db = `sqlite:${join(dir, 'refused.sqlite')}`;
    const account = await createAccount(db, 1000);
    const r = await runCli(args(topics, `g-${h.run}-refused`, db, { ...account, guid: account.guid.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) }));
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('401');
  });

  it('kill -9 mid-stream, start again: nothing lost, nothing twice; then SIGTERM stops it cleanly', async () => {
    const topics = await createTopics(h, 'crash', 2);
    const db = `sqlite:${join(dir, 'crash.sqlite')}`;
    const account = await createAccount(db, 10_000_000);
    const records: InputRecord[] = Array.from({ length: 4000 }, (_, i) => mixedRecord(i, 'crash'));
    const group = `g-${h.run}-crash`;
    let stopProducing = false;
    let produced = 0;
    const producing = (async () => {
      for (let i = 0; i < records.length && !stopProducing; i += 100) {
        await produce(h, topics.input, records.slice(i, i + 100));
        produced = i + 100;
        await new Promise((r) => setTimeout(r, 30));
      }
    })();

    const first = await launch(args(topics, group, db, account));
    while ((await committedCount(h, group, topics.input)) < 300) await new Promise((r) => setTimeout(r, 25));
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const atKill = await committedCount(h, group, topics.input);
    expect(atKill).toBeLessThan(records.length); // mid-stream

    const second = await launch(args(topics, group, db, account));
    await producing;
    expect(produced).toBeGreaterThanOrEqual(records.length);
    await waitForCommitted(h, group, topics.input, 120_000);

    const metrics = await (await fetch(`${second.metrics}/metrics`)).text();
    expect(metrics).toMatch(/addrflow_kafka_records_processed_total\{op="lines"\} \d+/);
    expect(metrics).toMatch(/addrflow_kafka_records_per_second \d/);
    expect((await fetch(`${second.metrics}/healthz`)).status).toBe(200);

    second.child.kill('SIGTERM');
    const stopped = await second.done;
    expect(stopped.code).toBe(0);

    await checkInvariants(h, topics, records, db, account, { killed: true });
    stopProducing = true;
  });
});
