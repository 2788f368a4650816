/**
 * A real Kafka broker for tests, found in this order:
 *   1. `KAFKA_BROKERS` (comma-separated host:port): CI (`.ci/run` starts the local broker and sets
 *      it), docker compose, any broker you already run;
 *   2. testcontainers, when a Docker engine answers: `apache/kafka:<KAFKA_VERSION>` (the image of
 *      docker-compose.yml), single-node KRaft;
 *   3. the local broker from Maven jars (`scripts/kafka-start.sh`), started when not running.
 *
 * The broker is started at most once per vitest run, and only when a test file asks for it:
 * test/helpers/global-setup.ts runs a tiny lazy "broker service" in the main vitest process
 * (`kafkaGlobalSetup`, this file); test files call `getKafkaBrokers()` or `describeWithKafka()`
 * (test/helpers/kafka.ts), which ask that service; the service starts a broker on the first request and stops it at the end of the
 * run if it started it. A local broker that was already running (`npm run kafka:start`) is
 * reused and left running.
 *
 * When no broker can be had (no Java, no Maven cache, …) Kafka suites skip with the reason in
 * their title, unless ADDRFLOW_REQUIRE_KAFKA=1, where they fail instead.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the lazy broker service of this run ('' outside a vitest run with the global setup). */
    kafkaBrokerService: string;
  }
}

/** Apache Kafka version of the test broker: tools/kafka/pom.xml and docker-compose.yml say the same. */
export const KAFKA_VERSION = '4.1.1';
export const KAFKA_IMAGE = `apache/kafka:${KAFKA_VERSION}`;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STATE_DIR = process.env.KAFKA_STATE_DIR ?? join(ROOT, '.kafka');
const exec = promisify(execFile);

export type BrokerSource = 'env' | 'testcontainers' | 'local';

export interface BrokerHandle {
  brokers: string[];
  source: BrokerSource;
  /** Human-readable origin, printed once per run. */
  description: string;
  /** Releases the broker: stops it if this handle started it, otherwise does nothing. */
  release(): Promise<void>;
}

export function parseBrokers(list: string): string[] {
  return list.split(',').map((s) => s.trim()).filter(Boolean);
}

/**
 * Waits until the cluster answers a metadata request (describeCluster) and has a controller.
 * Retries every 250 ms until `timeoutMs`.
 */
export async function waitForBroker(brokers: string[], timeoutMs = 60_000): Promise<void> {
  const { Kafka, logLevel } = await import('../../src/adapters/kafka/client/kafkajs.ts'); // lazy: the global setup loads this file on every run
  const kafka = new Kafka({
    clientId: 'addrflow-test-ready', brokers, logLevel: logLevel.NOTHING,
    connectionTimeout: 2000, retry: { retries: 0 },
  });
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    const admin = kafka.admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      if (cluster.brokers.length > 0 && cluster.controller !== null) return;
      last = new Error('no controller yet');
    } catch (e) {
      last = e;
    } finally {
      await admin.disconnect().catch(() => {});
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Kafka at ${brokers.join(',')} not ready within ${timeoutMs} ms: ${String(last)}`);
}

/**
 * Is a Docker (or compatible) engine reachable? Uses testcontainers' own strategy list
 * (TESTCONTAINERS_HOST_OVERRIDE, ~/.testcontainers.properties, DOCKER_HOST, /var/run/docker.sock,
 * rootless sockets …), which pings the engine: a `docker` CLI without a daemon is "no".
 * Without an engine it fails in about 0.3 s.
 */
export async function dockerAvailable(timeoutMs = 15_000): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('container runtime probe timed out')), timeoutMs);
    });
    try {
      await Promise.race([getContainerRuntimeClient(), timeout]);
    } finally {
      clearTimeout(timer);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `apache/kafka:<KAFKA_VERSION>` with testcontainers. `@testcontainers/kafka`'s
 * KafkaContainer only drives Confluent `cp-kafka` images (it runs /etc/confluent/docker/run and
 * reads the CP version from the tag), so the official Apache image is started as a
 * GenericContainer with the same technique: the container waits for a start script, which is
 * copied in once the mapped port is known, so that `advertised.listeners` can name it.
 */
async function startTestcontainer(): Promise<BrokerHandle> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const HOST_LISTENER_PORT = 9092; // mapped to a random host port
  const START_SCRIPT = '/tmp/addrflow-kafka-start.sh';
  const container = await new GenericContainer(KAFKA_IMAGE)
    .withExposedPorts(HOST_LISTENER_PORT)
    .withEnvironment({
      CLUSTER_ID: 'YWRkcmZsb3ctdGVzdC0xMg', // any base64url 16-byte id
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9094',
      KAFKA_LISTENERS: 'PLAINTEXT://0.0.0.0:9092,BROKER://0.0.0.0:9093,CONTROLLER://0.0.0.0:9094',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'PLAINTEXT:PLAINTEXT,BROKER:PLAINTEXT,CONTROLLER:PLAINTEXT',
      KAFKA_INTER_BROKER_LISTENER_NAME: 'BROKER',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LOG_DIRS: '/tmp/kraft-combined-logs',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_TRANSACTION_STATE_LOG_NUM_PARTITIONS: '1',
      KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_NUM_PARTITIONS: '1',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
    })
    .withEntrypoint(['sh', '-c'])
    .withCommand([`echo 'waiting for start script'; while [ ! -f ${START_SCRIPT} ]; do sleep 0.1; done; exec sh ${START_SCRIPT}`])
    .withWaitStrategy(Wait.forLogMessage('waiting for start script'))
    .withStartupTimeout(180_000)
    .start();
  const brokers = [`${container.getHost()}:${container.getMappedPort(HOST_LISTENER_PORT)}`];
  try {
    await container.copyContentToContainer([{
      content: `export KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://${brokers[0]},BROKER://localhost:9093\nexec /etc/kafka/docker/run\n`,
      target: START_SCRIPT,
      mode: 0o755,
    }]);
    await waitForBroker(brokers, 180_000);
  } catch (e) {
    await container.stop().catch(() => {});
    throw e;
  }
  return {
    brokers,
    source: 'testcontainers',
    description: `testcontainers ${KAFKA_IMAGE} at ${brokers[0]}`,
    release: async () => { await container.stop(); },
  };
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The local broker's address when scripts/kafka-start.sh's broker is running, else undefined. */
export function runningLocalBroker(): string[] | undefined {
  const pid = Number(readIfExists(join(STATE_DIR, 'kafka.pid')));
  const brokers = readIfExists(join(STATE_DIR, 'brokers'));
  if (!pid || !brokers || !pidAlive(pid)) return undefined;
  return parseBrokers(brokers);
}

/**
 * Several vitest runs may share the local broker (engineers run their own test files side by
 * side in one tree). Each run registers as a user in .kafka/users/<pid>; the broker is stopped
 * by the last user to leave, and only if a test run started it (.kafka/started-by-tests).
 */
const USERS_DIR = join(STATE_DIR, 'users');
const STARTED_BY_TESTS = join(STATE_DIR, 'started-by-tests');

function otherLiveUsers(): number[] {
  if (!existsSync(USERS_DIR)) return [];
  return readdirSync(USERS_DIR).map(Number).filter((pid) => pid && pid !== process.pid && pidAlive(pid));
}

async function useLocalBroker(): Promise<BrokerHandle> {
  mkdirSync(USERS_DIR, { recursive: true });
  const me = join(USERS_DIR, String(process.pid));
  writeFileSync(me, '');
  let brokers = runningLocalBroker();
  let how = 'already running (npm run kafka:start), left running';
  if (!brokers) {
    const t0 = Date.now();
    try {
      // idempotent and serialised by a lock: a concurrent run starting it at the same time is fine
      await exec('bash', [join(ROOT, 'scripts', 'kafka-start.sh')], { timeout: 180_000 });
    } catch (e) {
      rmSync(me, { force: true });
      const err = e as { stderr?: string; message: string };
      throw new Error(`scripts/kafka-start.sh failed: ${(err.stderr ?? err.message).trim().split('\n').slice(-5).join(' | ')}`);
    }
    writeFileSync(STARTED_BY_TESTS, String(process.pid));
    brokers = runningLocalBroker();
    if (!brokers) throw new Error('scripts/kafka-start.sh succeeded but .kafka/brokers is missing');
    how = `started in ${Date.now() - t0} ms, stopped at the end of the run`;
  } else if (existsSync(STARTED_BY_TESTS)) {
    how = 'started by another test run, shared';
  }
  await waitForBroker(brokers, 60_000);
  return {
    brokers,
    source: 'local',
    description: `local Maven broker (Kafka ${KAFKA_VERSION}) at ${brokers.join(',')}: ${how}`,
    release: async () => {
      rmSync(me, { force: true });
      if (!existsSync(STARTED_BY_TESTS) || otherLiveUsers().length > 0) return;
      rmSync(STARTED_BY_TESTS, { force: true });
      await exec('bash', [join(ROOT, 'scripts', 'kafka-stop.sh')], { timeout: 60_000 });
    },
  };
}

/** Finds or starts a broker (order in the module comment). Call `release()` when done. */
export async function acquireBroker(): Promise<BrokerHandle> {
  const env = process.env.KAFKA_BROKERS?.trim();
  if (env) {
    const brokers = parseBrokers(env);
    await waitForBroker(brokers, 60_000);
    return { brokers, source: 'env', description: `KAFKA_BROKERS=${env}`, release: async () => {} };
  }
  if (await dockerAvailable()) return startTestcontainer();
  return useLocalBroker();
}

// ---------------------------------------------------------------------------------------------
// vitest wiring: a lazy broker service in the main process, asked by the test files.

export interface ServiceAnswer {
  brokers?: string[];
  description?: string;
  error?: string;
}

/** One broker service per run, shared by the projects of vitest.config.ts (each runs the global setup). */
interface SharedService {
  url: string;
  users: number;
  close(): Promise<void>;
}
const SHARED = Symbol.for('addrflow.kafkaBrokerService');

/**
 * For test/helpers/global-setup.ts: serves `GET /` on 127.0.0.1 (random port), acquiring the
 * broker on the first request (once per run, whichever project asks first); the last project's
 * teardown releases it.
 */
export async function kafkaGlobalSetup(project: TestProject): Promise<() => Promise<void>> {
  const g = globalThis as { [SHARED]?: Promise<SharedService> };
  const service = await (g[SHARED] ??= startService());
  service.users++;
  project.provide('kafkaBrokerService', service.url);
  return async () => {
    if (--service.users > 0) return;
    delete g[SHARED];
    await service.close();
  };
}

async function startService(): Promise<SharedService> {
  let acquired: Promise<BrokerHandle> | undefined;
  const server = createServer((_req, res) => {
    if (!acquired) {
      acquired = acquireBroker();
      acquired.then(
        (h) => console.log(`[kafka] ${h.description}`),
        (e: unknown) => console.log(`[kafka] no broker: ${e instanceof Error ? e.message : String(e)}`),
      );
    }
    acquired.then(
      (h): ServiceAnswer => ({ brokers: h.brokers, description: h.description }),
      (e: unknown): ServiceAnswer => ({ error: e instanceof Error ? e.message : String(e) }),
    ).then((answer) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer));
    });
  });
  server.requestTimeout = 0; // a container start may take minutes
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    users: 0,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (acquired) {
        const handle = await acquired.catch(() => undefined);
        await handle?.release();
      }
    },
  };
}
