/**
 * Managed-Kafka settings against a real broker of the test's own with secured listeners:
 * SASL_PLAINTEXT (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512; SCRAM credentials written at format time),
 * SSL with a required client certificate, and SASL_SSL — certificates made here with openssl.
 * Then `addrflow consume` itself over SASL_SSL/SCRAM-SHA-512 and over mutual TLS, configured
 * through the environment: exactly-once invariants hold, and the password is in no log line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KafkaConnection, SaslMechanism } from '../../../../src/adapters/kafka/client/connection.ts';
import { createKafka } from '../../../../src/adapters/kafka/client/kafkajs.ts';
import { fetchTopicIds } from '../../../../src/adapters/kafka/client/topic-ids.ts';
import { ownBrokerUnavailable, startOwnBroker, type OwnBroker } from '../../../helpers/kafka-instance.ts';
import { makeCertificates, tlsUnavailable } from '../../../helpers/tls-certs.ts';
import { consumeArgs, launchConsume } from '../consume-process.ts';
import { checkInvariants, createAccount, createTopics, mixedRecord, openHarness, produce, waitForCommitted, type Harness } from '../worker-harness.ts';

const USER = 'addrflow-svc';
const PASSWORD = 'pw-' + Math.random().toString(36).slice(2) + '-Zz9';
const unavailable = ownBrokerUnavailable() ?? tlsUnavailable();
if (unavailable && process.env.ADDRFLOW_REQUIRE_KAFKA === '1') throw new Error(`Kafka required (ADDRFLOW_REQUIRE_KAFKA=1): ${unavailable}`);
const suite = unavailable ? describe.skip : describe;

suite(`managed Kafka: TLS and SASL against an own broker${unavailable ? ` — SKIPPED: ${unavailable}` : ''}`, () => {
  let broker: OwnBroker;
  let dir: string;
  let certs: ReturnType<typeof makeCertificates>;
  let h: Harness;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'addrflow-kafka-tls-'));
    certs = makeCertificates(dir);
    broker = await startOwnBroker({ name: 'secure', saslUsers: { [USER]: PASSWORD }, sslDir: dir });
    h = await openHarness(broker.brokers); // the PLAINTEXT listener of the same broker: topics, input, checks
  }, 240_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await h?.close();
    await broker?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  async function canUse(c: KafkaConnection, topic: string): Promise<string> {
    const admin = createKafka(c, { clientId: 'secure-test' }).admin();
    try {
      await admin.connect();
      expect(await admin.listTopics()).toContain(topic);
      return (await fetchTopicIds(c, [topic])).get(topic)!;
    } finally {
      await admin.disconnect().catch(() => {});
    }
  }

  it('SASL_PLAINTEXT: PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 authenticate (kafkajs and the topic-id lookup); a wrong password is refused', async () => {
    const topic = `secure-${h.run}-sasl`;
    await h.admin.createTopics({ topics: [{ topic }], waitForLeaders: true });
    const ids = new Set<string>();
    for (const mechanism of ['plain', 'scram-sha-256', 'scram-sha-512'] as SaslMechanism[]) {
      ids.add(await canUse({ brokers: broker.sasl!, sasl: { mechanism, username: USER, password: PASSWORD } }, topic));
    }
    expect(ids.size).toBe(1);
    for (const mechanism of ['scram-sha-256', 'scram-sha-512'] as SaslMechanism[]) {
      await expect(canUse({ brokers: broker.sasl!, sasl: { mechanism, username: USER, password: 'wrong' } }, topic)).rejects.toThrow(/authentication failed/i);
    }
  }, 60_000);

  it('SSL with a client certificate: connects with CA + certificate + key; the broker refuses a client without one', async () => {
    const topic = `secure-${h.run}-ssl`;
    await h.admin.createTopics({ topics: [{ topic }], waitForLeaders: true });
    const ca = readFileSync(certs.ca);
    await canUse({ brokers: broker.ssl!, tls: { ca, cert: readFileSync(certs.clientCert), key: readFileSync(certs.clientKey) } }, topic);
    await expect(canUse({ brokers: broker.ssl!, tls: { ca } }, topic)).rejects.toThrow(/certificate|connection|closed/i);
  }, 60_000);

  it('addrflow consume over SASL_SSL with SCRAM-SHA-512 (password from the environment): exactly once, no password in the logs', async () => {
    const topics = await createTopics(h, 'sasl-ssl', 2);
    const db = `sqlite:${join(dir, 'sasl-ssl.sqlite')}`;
    const account = await createAccount(db, 10_000_000);
    const records = Array.from({ length: 300 }, (_, i) => mixedRecord(i, 'sasl'));
    await produce(h, topics.input, records);
    const group = `g-${h.run}-sasl-ssl`;
    const w = await launchConsume(consumeArgs(broker.saslSsl!, topics, group, db, account, ['--tls-ca', certs.ca, '--sasl-mechanism', 'scram-sha-512']), {
      ADDRFLOW_KAFKA_SASL_USERNAME: USER, ADDRFLOW_KAFKA_SASL_PASSWORD: PASSWORD, ADDRFLOW_LOG_LEVEL: 'debug',
    }, children);
    await waitForCommitted(h, group, topics.input, 120_000);
    w.child.kill('SIGTERM');
    const r = await w.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/"security":"SASL_SSL"/);
    expect(r.stderr).toMatch(/"mechanism":"scram-sha-512"/);
    expect(r.stderr).not.toContain(PASSWORD);
    await checkInvariants(h, topics, records, db, account);
  }, 180_000);

  it('addrflow consume over mutual TLS from the environment (CA, client certificate and key files)', async () => {
    const topics = await createTopics(h, 'mtls', 1);
    const db = `sqlite:${join(dir, 'mtls.sqlite')}`;
    const account = await createAccount(db, 10_000_000);
    const records = Array.from({ length: 120 }, (_, i) => mixedRecord(i, 'mtls'));
    await produce(h, topics.input, records);
    const group = `g-${h.run}-mtls`;
    const w = await launchConsume(consumeArgs(broker.ssl!, topics, group, db, account), {
      ADDRFLOW_KAFKA_TLS_CA_FILE: certs.ca, ADDRFLOW_KAFKA_TLS_CERT_FILE: certs.clientCert, ADDRFLOW_KAFKA_TLS_KEY_FILE: certs.clientKey,
    }, children);
    await waitForCommitted(h, group, topics.input, 120_000);
    w.child.kill('SIGTERM');
    expect((await w.done).code).toBe(0);
    await checkInvariants(h, topics, records, db, account);
  }, 180_000);

  it('addrflow consume and topics with a wrong SASL password do not start: ADDR_ERR_KAFKA_AUTH, exit 4 (like a refused license), one line, no password', async () => {
    const topics = await createTopics(h, 'badpw', 1);
    const db = `sqlite:${join(dir, 'badpw.sqlite')}`;
    const account = await createAccount(db, 1000);
    const pwFile = join(dir, 'wrong-password');
    writeFileSync(pwFile, 'not-the-password\n');
    const { done } = (await import('../../../helpers/cli.ts')).startCli(
      consumeArgs(broker.sasl!, topics, `g-${h.run}-badpw`, db, account, ['--sasl-mechanism', 'scram-sha-256', '--sasl-username', USER, '--sasl-password-file', pwFile]),
    );
    const r = await done;
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^addrflow consume: ADDR_ERR_KAFKA_AUTH: .* refused SASL scram-sha-256 user addrflow-svc: .*authentication failed/i);
    expect(r.stderr).not.toContain('not-the-password');
    const t = await (await import('../../../helpers/cli.ts')).runCli([
      'topics', 'create', '--brokers', broker.sasl!.join(','), '--input-topic', topics.input, '--results-topic', topics.results, '--ledger-topic', topics.ledger,
      '--sasl-mechanism', 'plain', '--sasl-username', USER, '--sasl-password-file', pwFile,
    ]);
    expect(t.code, t.stderr).toBe(4);
    expect(t.stderr).toMatch(/^addrflow topics: ADDR_ERR_KAFKA_AUTH: /);
    expect(t.stderr).not.toContain('not-the-password');
  }, 120_000);
});
