/**
 * The README's Kafka block, run as written against the real broker (issue 19): the commands are
 * read from README.md itself, so the README and this test cannot drift. Then 200 JSON requests go
 * into the input topic and 200 results and 200 ledger entries must come out, committed; SIGTERM
 * stops `consume` with exit 0. Also: `consume` against missing topics is one coded line (exit 12,
 * no stack trace), and `topics create` is idempotent.
 *
 * What the test changes in the block, and why:
 *  - `npm run kafka:start` is not run: the run's broker (KAFKA_BROKERS or the global setup) stands
 *    in for it, and its address replaces 127.0.0.1:9092;
 *  - topic names get a fresh prefix and the group a fresh name (a shared broker: nothing collides
 *    with another run);
 *  - `npx addrflow` runs bin/addrflow.ts with the project's Node (what npx resolves to in a clone;
 *    the commands run in a temporary directory, where npx would find no project);
 *  - `consume` also gets `--metrics-port 0 --metrics-host 127.0.0.1 --workers 1` (no fixed port on
 *    a shared machine) and is exec'd, so SIGTERM reaches it as it would from a terminal;
 *  - `[…]` parts are optional and left out.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/shared-data.ts';
import { BIN, runCli, startCli } from '../helpers/cli.ts';
import { describeWithKafka } from '../helpers/kafka.ts';
import { openHarness, produce, readAll, type Harness, type InputRecord } from '../adapters/kafka/worker-harness.ts';

const N = 200;

/** The shell commands of the README's Kafka block: continuation lines joined, comments dropped. */
export function readmeKafkaBlock(readme: string): string[] {
  const section = readme.indexOf('### Kafka stream worker');
  expect(section, 'README section "### Kafka stream worker"').toBeGreaterThan(0);
  const open = readme.indexOf('```sh\n', section);
  const close = readme.indexOf('\n```', open + 6);
  const body = readme.slice(open + 6, close);
  return body.replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.replace(/\s+#\s.*$/, '').trim())
    .filter(Boolean);
}

function runnable(lines: string[], o: { brokers: string; prefix: string }): string {
  expect(lines[0]).toBe('npm run kafka:start');
  const consumeAt = lines.findIndex((l) => l.startsWith('npx addrflow consume '));
  expect(consumeAt, 'the block ends with addrflow consume').toBe(lines.length - 1);
  const fixed = lines.slice(1).map((l) => l
    .replace(/\s*\[[^\]]*\]/g, '')
    .replaceAll('127.0.0.1:9092', o.brokers)
    .replace(/\baddresses\./g, `${o.prefix}.`)
    .replace(/--group addrflow\b/, `--group ${o.prefix}`));
  const last = fixed.pop()!.replace(/^npx addrflow consume /, 'exec node "$ADDRFLOW_BIN" consume ') + ' --metrics-port 0 --metrics-host 127.0.0.1 --workers 1';
  return [
    'set -euo pipefail',
    'npx() { if [ "$1" = addrflow ]; then shift; node "$ADDRFLOW_BIN" "$@"; else echo "unexpected: npx $*" >&2; return 127; fi; }',
    ...fixed,
    last,
  ].join('\n');
}

function request(i: number): InputRecord {
  const cities = [
    { city: 'Berlin', countrycode: 'DE', zip: '10117' },
    { city: 'Paris', countrycode: 'FR', zip: '75001' },
    { city: 'Wien', countrycode: 'AT', zip: '1010' },
  ];
  const c = cities[i % cities.length]!;
  const value = { op: 'lines', ...c, sendercountrycode: 'DE', street: 'Hauptstrasse', housenumber: String(1 + (i % 90)), additionaldata: `Person ${i}` };
  return { key: `readme-${i}`, value: Buffer.from(JSON.stringify(value)), expect: 'result', op: 'lines' };
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

await describeWithKafka('README: the Kafka block', (brokers) => {
  it(`runs as written: topics, account, consume; ${N} JSON requests → ${N} results and ${N} ledger entries, committed; SIGTERM → exit 0`, async () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const prefix = `readme-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const script = runnable(readmeKafkaBlock(readme), { brokers: brokers().join(','), prefix });
    const cwd = mkdtempSync(join(tmpdir(), 'addrflow-readme-'));
    dirs.push(cwd);
    const child = spawn('bash', ['-c', script], {
      cwd,
      env: { ...process.env, ADDRFLOW_BIN: BIN, ADDRFLOW_LOG_LEVEL: 'warn', PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let h: Harness | undefined;
    try {
      // the worker's start line ({"consuming": …}) says the block got through to a running consume
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (stdout.includes('"consuming"')) (clearInterval(timer), resolve());
        }, 100);
        void exited.then((code) => (clearInterval(timer), reject(new Error(`the block ended early (${code}):\n${stdout}\n${stderr}`))));
      });
      const created = stdout.split('\n').filter((l) => l.startsWith('{"role"')).map((l) => JSON.parse(l) as { topic: string; status: string; partitions: number });
      expect(created.map((t) => t.topic).sort()).toEqual(['dlq', 'ledger', 'requests', 'results'].map((s) => `${prefix}.${s}`));
      expect(created.every((t) => t.status === 'created' && t.partitions === 6)).toBe(true);

      h = await openHarness(brokers());
      await produce(h, `${prefix}.requests`, Array.from({ length: N }, (_, i) => request(i)));
      const results = await readAll(h, `${prefix}.results`, { minCount: N, idleMs: 2000, timeoutMs: 180_000 });
      const ledger = await readAll(h, `${prefix}.ledger`, { minCount: N, idleMs: 1000, timeoutMs: 60_000 });
      expect(results.length).toBe(N);
      expect(new Set(results.map((r) => r.key)).size).toBe(N);
      const first = JSON.parse(results[0]!.value!.toString('utf8')) as Record<string, unknown>;
      expect(first).toHaveProperty('addresslinestatuscode');
      expect(ledger.length).toBe(N);
      expect(new Set(ledger.map((r) => r.key)).size).toBe(N);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await h?.close();
    }
  }, 300_000);

  it('consume against missing topics: one coded line naming the way to create them, exit 12, no stack trace', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'addrflow-readme-'));
    dirs.push(cwd);
    const db = `sqlite:${join(cwd, 'store.sqlite')}`;
    const acct = await runCli(['accounts', 'create', '--credits', '100', '--agree', 'lines', '--db', db]);
    const { license, guid } = JSON.parse(acct.stdout) as { license: string; guid: string };
    const t = `readme-missing-${Date.now().toString(36)}`;
    for (const client of ['platformatic', 'kafkajs']) {
      const r = await runCli([
        'consume', '--brokers', brokers().join(','), '--group', t, '--input-topic', `${t}.requests`, '--results-topic', `${t}.results`,
        '--ledger-topic', `${t}.ledger`, '--db', db, '--op', 'lines', '--workers', '1', '--metrics-port', '0', '--metrics-host', '127.0.0.1',
        '--kafka-client', client,
      ], { env: { ADDRFLOW_LICENSE: license, ADDRFLOW_GUID: guid, ADDRFLOW_LOG_LEVEL: 'info' } });
      expect(r.code, `${client}: ${r.stderr}`).toBe(12);
      const lines = r.stderr.trim().split('\n');
      expect(lines, `${client}: ${r.stderr}`).toHaveLength(1);
      expect(lines[0]).toBe(`addrflow consume: ADDR_ERR_KAFKA_TOPIC_MISSING: topic(s) ${t}.requests, ${t}.results, ${t}.ledger, ${t}.requests.dlq`
        + ` not found on ${brokers().join(',')}; create them with 'addrflow topics create --brokers ${brokers().join(',')} --input-topic ${t}.requests`
        + ` --results-topic ${t}.results --ledger-topic ${t}.ledger --dlq-topic ${t}.requests.dlq' (or consume --create-topics)`);
    }
  }, 120_000);

  it('consume --create-topics creates the missing topics with the defaults, then consumes; topics check agrees', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'addrflow-readme-'));
    dirs.push(cwd);
    const db = `sqlite:${join(cwd, 'store.sqlite')}`;
    const acct = await runCli(['accounts', 'create', '--credits', '100', '--agree', 'lines', '--db', db]);
    const { license, guid } = JSON.parse(acct.stdout) as { license: string; guid: string };
    const t = `readme-auto-${Date.now().toString(36)}`;
    const topicArgs = ['--input-topic', `${t}.requests`, '--results-topic', `${t}.results`, '--ledger-topic', `${t}.ledger`];
    const { child, done } = startCli([
      'consume', '--brokers', brokers().join(','), '--group', t, ...topicArgs, '--db', db, '--op', 'lines', '--workers', '1',
      '--metrics-port', '0', '--metrics-host', '127.0.0.1', '--create-topics',
    ], { env: { ADDRFLOW_LICENSE: license, ADDRFLOW_GUID: guid } });
    let out = '';
    child.stdout!.on('data', (d: string) => (out += d));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => out.includes('"consuming"') && (clearInterval(timer), resolve()), 100);
        void done.then((r) => (clearInterval(timer), reject(new Error(`consume ended early (${r.code}): ${r.stderr}`))));
      });
      const check = await runCli(['topics', 'check', '--brokers', brokers().join(','), ...topicArgs, '--partitions', '6']);
      expect(check.code, check.stderr).toBe(0);
      expect(check.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { status: string }).status)).toEqual(['exists', 'exists', 'exists', 'exists']);
      child.kill('SIGTERM');
      expect((await done).code).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 180_000);

  it('topics create twice is idempotent; check agrees; a topic with fewer partitions than asked is reported (exit 12)', async () => {
    const t = `readme-idem-${Date.now().toString(36)}`;
    const args = ['--brokers', brokers().join(','), '--input-topic', `${t}.in`, '--results-topic', `${t}.out`, '--ledger-topic', `${t}.ledger`, '--partitions', '2'];
    const parse = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l) as { topic: string; status: string; partitions: number; replicationFactor: number; configs: Record<string, string> });
    const first = await runCli(['topics', 'create', ...args]);
    expect(first.code, first.stderr).toBe(0);
    const created = parse(first.stdout);
    expect(created.map((r) => r.status)).toEqual(['created', 'created', 'created', 'created']);
    expect(created.map((r) => r.topic)).toEqual([`${t}.in`, `${t}.out`, `${t}.ledger`, `${t}.in.dlq`]);
    for (const r of created) {
      expect(r.partitions).toBe(2);
      expect(r.configs['cleanup.policy']).toBe('delete');
      expect(r.configs['unclean.leader.election.enable']).toBe('false');
    }
    expect(created[2]!.configs['retention.ms']).toBe('-1');
    expect(created[3]!.configs['retention.ms']).toBe(String(30 * 86_400_000));

    const again = await runCli(['topics', 'create', ...args]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    expect(parse(again.stdout).map((r) => r.status)).toEqual(['exists', 'exists', 'exists', 'exists']);
    const check = await runCli(['topics', 'check', ...args]);
    expect(check.code, check.stderr).toBe(0);

    const more = await runCli(['topics', 'create', ...args.slice(0, -1), '4']);
    expect(more.code).toBe(12);
    expect(parse(more.stdout).map((r) => r.status)).toEqual(['mismatch', 'mismatch', 'mismatch', 'mismatch']);
    expect(more.stderr.trim().split('\n')).toHaveLength(1);
    expect(more.stderr).toMatch(/^addrflow topics: ADDR_ERR_KAFKA_TOPIC_SETTINGS: .*2 partitions, fewer than 4/);
  }, 120_000);
});

describe('addrflow topics: brokers that do not answer', () => {
  it('are waited for 30 s, then one line ADDR_ERR_KAFKA_UNREACHABLE with the reason, exit 12', async () => {
    // a port nobody listens on: taken from the OS, then freed
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const started = Date.now();
    const r = await runCli(['topics', 'check', '--brokers', `127.0.0.1:${port}`, '--input-topic', 'a', '--results-topic', 'b', '--ledger-topic', 'c']);
    const took = Date.now() - started;
    expect(r.code, r.stderr).toBe(12);
    expect(r.stderr.trim().split('\n')).toEqual([
      `addrflow topics: ADDR_ERR_KAFKA_UNREACHABLE: brokers 127.0.0.1:${port} not reachable within 30 s: connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
    expect(took).toBeGreaterThanOrEqual(29_000);
    expect(took).toBeLessThan(60_000);
  }, 90_000);
});
