/**
 * `addrflow consume` as a child process for the fault and managed-Kafka tests: its arguments,
 * and a launcher that waits for the start line (JSON on stdout, with the metrics URL).
 */
import type { ChildProcess } from 'node:child_process';
import { startCli, type CliResult } from '../../helpers/cli.ts';
import type { Account, Topics } from './worker-harness.ts';

export function consumeArgs(brokers: string[], topics: Topics, group: string, db: string, account: Account, extra: string[] = []): string[] {
  return [
    'consume', '--brokers', brokers.join(','), '--group', group,
    '--input-topic', topics.input, '--results-topic', topics.results, '--ledger-topic', topics.ledger, '--dlq-topic', topics.dlq,
    '--license', account.license, '--guid', account.guid, '--db', db,
    '--workers', '1', '--metrics-port', '0', '--metrics-host', '127.0.0.1', '--session-timeout', '6000', ...extra,
  ];
}

export interface LaunchedWorker {
  child: ChildProcess;
  done: Promise<CliResult>;
  metrics: string;
  /** stderr so far (pino JSON lines at the child's ADDRFLOW_LOG_LEVEL). */
  stderr(): string;
}

export async function launchConsume(args: string[], env: Record<string, string> = {}, children: ChildProcess[] = []): Promise<LaunchedWorker> {
  const { child, done } = startCli(args, { env });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d: string) => (err += d));
  const metrics = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: string) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { metrics: string }).metrics);
    });
    void done.then((r) => reject(new Error(`worker exited early (${r.code}/${r.signal}): ${r.stderr}`)));
  });
  return { child, done, metrics, stderr: () => err };
}
