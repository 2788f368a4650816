/**
 * `addrflow consume`, run: the Kafka stream worker's start and stop in the order the operator
 * relies on — the index, the billing store and the account (refused: exit 4, nothing consumed),
 * `--create-topics`, the engine pool, the metrics server, the worker; then SIGTERM/SIGINT stop it
 * within STOP_BOUND_MS (the batch in flight committed or aborted, pool and store closed). The CLI
 * (src/cli/commands/consume.ts) parses the options and calls runConsumer.
 */
import { OPS, type Op } from '../../contract/params.ts';
import { ServiceError, StartError } from '../../contract/errors.ts';
import { validateCredentials } from '../../contract/validate.ts';
import { EXIT_REFUSED } from '../../contract/exit-codes.ts';
import { Billing } from '../../billing/billing.ts';
import { describeDb } from '../../billing/open-store.ts';
import { Meter } from '../../billing/meter.ts';
import { availableParallelism } from 'node:os';
import { EnginePool } from '../../pool/engine-pool.ts';
import { createLogger, type Logger } from '../../log.ts';
import { createValueCodec, type RegistryIds } from './avro/index.ts';
import { createStreamWorker, type KafkaClientName } from './worker-client.ts';
import { createWorkerMetrics, serveMetrics, type MetricsServer } from './worker-metrics.ts';
import { describeConnection, type KafkaConnection } from './client/connection.ts';
import { ensureTopics } from './topics/ensure.ts';
import type { TopicNames } from './topics/plan.ts';

/** A stopping worker exits at most this long after SIGTERM/SIGINT, whatever the broker and store do. */
export const STOP_BOUND_MS = 30_000;
/** What the worker's own stop may take (the batch in flight, the disconnects); the rest of the bound is for closing pool and store. */
const STOP_TIMEOUT_MS = 20_000;

/**
 * Engine threads of `consume` without `--workers`: one core fewer than the machine has, at least
 * one. The worker's main thread is busy on its own — the Kafka client (fetch responses, record
 * batches, CRCs, four producers), the metering and the messages — and the SQLite store has a
 * thread too; an engine thread per core only made them compete (issue 20, on 2 cores: 1 engine
 * thread ran 18,000–27,000 → 23,000–28,000 records/s on @platformatic/kafka with up to 1.1 s less
 * CPU per 100,000, and no worse on kafkajs; docs/performance.md).
 */
export function defaultConsumeThreads(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

export interface ConsumerOptions {
  brokers: string[];
  connection: KafkaConnection;
  group: string;
  inputTopic: string;
  resultsTopic: string;
  ledgerTopic: string;
  dlqTopic: string;
  /** One op for every record, or undefined: the op comes from each JSON value. */
  op: Op | undefined;
  valueFormat: 'avro' | 'json';
  explain: boolean;
  preferCountry: string | undefined;
  workers: number | undefined;
  metricsHost: string;
  metricsPort: number;
  transactionalIdPrefix: string | undefined;
  registryIds: RegistryIds | undefined;
  sessionTimeoutMs: number;
  creditCheckIntervalMs: number;
  partitionsConcurrently: number;
  kafkaClient: KafkaClientName;
  createTopics: boolean;
  /** license and guid as given (validated here). */
  credentials: { license?: string; guid?: string };
  db: string | undefined;
  /** Loads the index the op needs (none for lines only). */
  loadIndex: () => Promise<SharedArrayBuffer | undefined>;
  /** The coded start error for a metrics port that cannot be listened on. */
  listenError: (err: unknown) => unknown;
}

/** Runs the worker until SIGTERM/SIGINT or a consumer failure; answers the exit code. */
export async function runConsumer(o: ConsumerOptions): Promise<number> {
  const { brokers, connection, group, inputTopic, resultsTopic, ledgerTopic, dlqTopic, op, valueFormat, preferCountry, workers, registryIds, kafkaClient, sessionTimeoutMs, creditCheckIntervalMs, partitionsConcurrently } = o;
  const creds = validateCredentials(o.credentials);
  const log = createLogger();

  // the index first: an unusable one stops the worker before it opens the store or Kafka
  const indexBuffer = await o.loadIndex();
  // SQLite on a thread of its own (sqlite/thread-store.ts): the settle's ledger rows are written off
  // the main thread, which the worker's throughput is bound by (issue 20)
  const billing = await Billing.open(o.db, { thread: true });
  let meter: Meter;
  try {
    if (!creds.ok) throw new ServiceError(creds.error.errorcode === 401 ? 'UNAUTHORIZED' : 'INVALID_PARAMETER', creds.error.errormessage);
    meter = await Meter.open(billing, creds.credentials, op ? [op] : OPS, { sweep: true });
  } catch (err) {
    await billing.close();
    if (!(err instanceof ServiceError)) throw err;
    process.stderr.write(`addrflow consume: ${err.name}: the worker did not start: ${err.status} ${err.message}\n`);
    return EXIT_REFUSED;
  }

  if (o.createTopics) {
    // after the credentials: topics are created for a worker that can run, before the pool starts
    try {
      await createTopics(connection, { input: inputTopic, results: resultsTopic, ledger: ledgerTopic, dlq: dlqTopic }, log);
    } catch (err) {
      await meter.close().catch(() => {});
      await billing.close();
      throw err;
    }
  }

  const pool = await EnginePool.create({ threads: workers ?? defaultConsumeThreads(), ...(indexBuffer ? { indexBuffer } : {}) });
  const metrics = createWorkerMetrics();
  const worker = createStreamWorker(kafkaClient, {
    brokers, connection, group, inputTopic, resultsTopic, ledgerTopic, dlqTopic, valueFormat,
    ...(o.explain ? { explain: true } : {}),
    ...(op ? { op } : {}),
    ...(preferCountry ? { defaults: { prefer_country: preferCountry } } : {}),
    transactionalIdPrefix: o.transactionalIdPrefix ?? `addrflow-${group}`,
    pool, meter, codec: createValueCodec(registryIds ? { registryIds } : {}), log, metrics,
    sessionTimeoutMs, creditCheckIntervalMs, partitionsConcurrently,
  });

  let server: MetricsServer | undefined;
  /** Answers whether the worker stopped cleanly (its batch in flight committed or aborted). */
  const shutdown = async (): Promise<boolean> => {
    const clean = await worker.stop(STOP_TIMEOUT_MS).catch((err) => (log.error({ err }, 'error while stopping the consumer'), false));
    await server?.close();
    await meter.close().catch(() => {});
    await pool.destroy();
    await billing.close();
    return clean;
  };
  try {
    server = await serveMetrics(metrics, o.metricsPort, o.metricsHost, () => worker.healthy).catch((e: unknown) => {
      throw o.listenError(e);
    });
    await worker.start();
  } catch (err) {
    await shutdown();
    // a start failure (Kafka unreachable, a topic missing, credentials refused, a busy
    // --metrics-port, anything unexpected): its one coded line is main's (src/cli/fault.ts);
    // the log keeps the details for debugging, never a stack trace on stderr by default
    log.debug({ err }, 'the worker could not start');
    log.flush();
    exitSoon(err instanceof StartError ? err.exit : 1);
    throw err;
  }
  log.info({
    kafka: describeConnection(connection), kafkaClient, group, inputTopic, inputTopicId: worker.inputTopicId, resultsTopic, ledgerTopic, dlqTopic,
    op: op ?? 'from value', valueFormat, store: describeDb(o.db), workers: pool.threads, metrics: server.url,
  }, 'addrflow consume started');
  process.stdout.write(JSON.stringify({ consuming: inputTopic, group, metrics: server.url }) + '\n');

  return await new Promise<number>((resolve) => {
    let done = false;
    const finish = async (code: number, why: string) => {
      if (done) return;
      done = true;
      log.info({ why, boundMs: STOP_BOUND_MS }, 'stopping: finishing the batch in flight');
      // the last resort of the bound: whatever hangs (a store that does not answer…), exit
      const hard = setTimeout(() => {
        log.error({ why, boundMs: STOP_BOUND_MS }, 'the stop did not finish within its bound: exiting now (the next worker fences this one)');
        log.flush();
        process.exit(code === 0 ? 1 : code);
      }, STOP_BOUND_MS - 2000);
      hard.unref();
      const clean = await shutdown();
      if (!clean) {
        log.warn({ timeoutMs: STOP_TIMEOUT_MS }, 'stopped without finishing the batch in flight (broker unreachable?): the next worker processes it again, charged at most once');
      }
      clearTimeout(hard);
      log.info({ clean }, 'stopped');
      log.flush();
      resolve(code);
      exitSoon(code);
    };
    process.once('SIGTERM', () => void finish(0, 'SIGTERM'));
    process.once('SIGINT', () => void finish(0, 'SIGINT'));
    void worker.failed.then(() => finish(1, 'consumer failed'));
  });
}

/**
 * `--create-topics`: as `addrflow topics create` with its defaults. A topic that exists with
 * settings that can break the pipeline stops the worker (it is never altered).
 */
async function createTopics(connection: KafkaConnection, names: TopicNames, log: Logger): Promise<void> {
  const { reports } = await ensureTopics(connection, names, { create: true, clientId: 'addrflow-consume-topics' });
  const bad = reports.filter((r) => r.status === 'mismatch');
  if (bad.length) {
    throw new StartError('KAFKA_TOPIC_SETTINGS', bad.map((r) => `${r.topic}: ${r.problems!.join('; ')}`).join(' | ') + " (see 'addrflow topics check')");
  }
  log.info({ topics: reports.map(({ topic, status, partitions, replicationFactor }) => ({ topic, status, partitions, replicationFactor })) }, 'topics ready (--create-topics)');
}

/**
 * Everything is closed; the process must not linger. kafkajs 2.2.4 can keep a consumer-restart
 * timer after `disconnect()` (a crash it restarts from, e.g. after the broker came back: it logs
 * "Restarting the consumer" and reconnects), which would keep the event loop alive. The exit code
 * is set by bin/addrflow.ts; this only ends the process if something still holds it a second later.
 */
function exitSoon(code: number): void {
  setTimeout(() => process.exit(process.exitCode ?? code), 1000).unref();
}

