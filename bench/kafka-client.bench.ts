/**
 * Client evaluation (issue 12): kafkajs 2.2.4 against @platformatic/kafka on the worker's
 * exactly-once pattern, same broker, same 100,000 records, same run.
 *
 *  - kafkajs: consumer group → eachBatch (4 partitions concurrently) → one transactional producer
 *    per input partition (no KIP-447), one transaction per batch: send + sendOffsets + commit;
 *  - @platformatic/kafka: consumer group → message stream → ONE transactional producer (KIP-447:
 *    TxnOffsetCommit carries the group generation and member id), one transaction per ≤ 2,000
 *    messages: send + addOffset (last message of each partition) + commit.
 *
 * Plain (non-transactional) passthroughs of both clients are the floors. Each variant is timed
 * from consumer start until the group's committed offsets reach the end of the input.
 *
 *   npm run bench -- kafka-client
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Kafka, logLevel, Partitioners, type Producer } from '../src/adapters/kafka/client/kafkajs.ts';
import { Consumer as PConsumer, Producer as PProducer, type Message as PMessage } from '@platformatic/kafka';
import { generateLines } from '../scripts/generate-requests.ts';
import { createValueCodec } from '../src/adapters/kafka/avro/index.ts';
import { sendOffsetsRetrying } from '../src/adapters/kafka/send-offsets.ts';
import { runningLocalBroker } from '../test/helpers/kafka-broker.ts';

const N = Number(process.env.ADDRFLOW_BENCH_KAFKA_RECORDS ?? 100_000);
const PARTITIONS = 4;
const SLICE = 2000;
/** @platformatic/kafka retries after 1 s by default; CONCURRENT_TRANSACTIONS right after a commit is expected, so it retries after 5 ms here (its best setting: 50 ms gave 0.46–0.77 of kafkajs, 1 s gave 0.08). */
const RETRY_DELAY_MS = Number(process.env.ADDRFLOW_BENCH_RETRY_DELAY ?? 5);
const root = fileURLToPath(new URL('..', import.meta.url));

let startedBroker = false;
function brokers(): string[] {
  const env = process.env.KAFKA_BROKERS?.trim();
  if (env) return env.split(',');
  const running = runningLocalBroker();
  if (running) return running;
  const r = spawnSync('bash', [join(root, 'scripts/kafka-start.sh')], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('could not start the local broker (npm run kafka:start)');
  startedBroker = true;
  return runningLocalBroker()!;
}

const run = randomBytes(3).toString('hex');
const kafka = new Kafka({ clientId: `bench-client-${run}`, brokers: brokers(), logLevel: logLevel.NOTHING });
const admin = kafka.admin();

async function topic(name: string): Promise<string> {
  const t = `bench-client-${run}-${name}`;
  await admin.createTopics({ topics: [{ topic: t, numPartitions: PARTITIONS }], waitForLeaders: true });
  return t;
}

async function committed(group: string, t: string): Promise<number> {
  const res = await admin.fetchOffsets({ groupId: group, topics: [t] });
  return (res[0]?.partitions ?? []).reduce((s, p) => s + Math.max(0, Number(p.offset)), 0);
}

async function waitCommitted(group: string, t: string): Promise<void> {
  while ((await committed(group, t)) < N) await new Promise((r) => setTimeout(r, 100));
}

async function kafkajsPassthrough(input: string, output: string, transactional: boolean): Promise<number> {
  const group = `bench-client-${run}-kafkajs-${transactional ? 'tx' : 'plain'}`;
  const consumer = kafka.consumer({ groupId: group, maxWaitTimeInMs: 1000 });
  const plain = kafka.producer({ idempotent: true, createPartitioner: Partitioners.DefaultPartitioner });
  const txProducers = new Map<number, Producer>();
  await plain.connect();
  await consumer.connect();
  await consumer.subscribe({ topic: input, fromBeginning: true });
  const t0 = performance.now();
  await consumer.run({
    autoCommit: !transactional,
    eachBatchAutoResolve: !transactional,
    partitionsConsumedConcurrently: 4,
    eachBatch: async ({ batch, resolveOffset }) => {
      for (let i = 0; i < batch.messages.length; i += SLICE) {
        const part = batch.messages.slice(i, i + SLICE);
        const messages = part.map((m) => ({ key: m.key, value: m.value }));
        if (!transactional) {
          await plain.send({ topic: output, messages, acks: -1 });
          continue;
        }
        let p = txProducers.get(batch.partition);
        if (!p) {
          p = kafka.producer({ transactionalId: `${group}-${batch.partition}`, idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
          await p.connect();
          txProducers.set(batch.partition, p);
        }
        const tx = await p.transaction();
        await tx.send({ topic: output, messages, acks: -1 });
        const last = part[part.length - 1]!.offset;
        await sendOffsetsRetrying(tx, { consumerGroupId: group, topics: [{ topic: input, partitions: [{ partition: batch.partition, offset: String(Number(last) + 1) }] }] });
        await tx.commit();
        resolveOffset(last);
      }
    },
  });
  await waitCommitted(group, input);
  const seconds = (performance.now() - t0) / 1000;
  await consumer.disconnect();
  await plain.disconnect();
  for (const p of txProducers.values()) await p.disconnect();
  return N / seconds;
}

async function platformaticPassthrough(input: string, output: string, mode: 'plain' | 'tx-one' | 'tx-per-partition'): Promise<number> {
  const group = `bench-client-${run}-platformatic-${mode}`;
  const bootstrapBrokers = brokers();
  const consumer = new PConsumer({ groupId: group, clientId: `${group}-c`, bootstrapBrokers, maxWaitTime: 1000 });
  const producers = new Map<string, PProducer>();
  const producerFor = (key: string): PProducer => {
    let p = producers.get(key);
    if (!p) {
      p = new PProducer({
        clientId: `${group}-p${key}`, bootstrapBrokers, idempotent: true, retryDelay: RETRY_DELAY_MS,
        ...(mode === 'plain' ? {} : { transactionalId: `${group}-tx-${key}` }),
      });
      producers.set(key, p);
    }
    return p;
  };
  const t0 = performance.now();
  const stream = await consumer.consume({ topics: [input], mode: 'committed', fallbackMode: 'earliest', autocommit: false });
  // one queue (one producer) or one queue per input partition, processed concurrently
  const queues = new Map<string, PMessage[]>();
  let buffered = 0;
  const wakers = new Set<() => void>();
  const loops: Promise<void>[] = [];
  let done = false;
  const loop = async (key: string, queue: PMessage[]): Promise<void> => {
    const producer = producerFor(key);
    while (!done) {
      if (queue.length === 0) {
        await new Promise<void>((r) => { wakers.add(r); setTimeout(r, 20); });
        continue;
      }
      const part = queue.splice(0, SLICE);
      buffered -= part.length;
      if (stream.isPaused() && buffered < 2 * SLICE) stream.resume();
      const lastOf = new Map<number, PMessage>();
      for (const m of part) lastOf.set(m.partition, m);
      const messages = part.map((m) => ({ topic: output, key: m.key, value: m.value }));
      if (mode === 'plain') {
        await producer.send({ messages });
        await consumer.commit({ offsets: [...lastOf.values()].map((m) => ({ topic: m.topic, partition: m.partition, offset: m.offset + 1n, leaderEpoch: -1 })) });
        continue;
      }
      const tx = await producer.beginTransaction();
      await tx.addConsumer(consumer);
      await tx.send({ messages });
      for (const m of lastOf.values()) await tx.addOffset(m);
      await tx.commit();
    }
  };
  stream.on('data', (m: PMessage) => {
    const key = mode === 'tx-per-partition' ? String(m.partition) : 'all';
    let q = queues.get(key);
    if (!q) {
      q = [];
      queues.set(key, q);
      loops.push(loop(key, q));
    }
    q.push(m);
    if (++buffered >= 4 * SLICE) stream.pause();
    for (const w of wakers) w();
    wakers.clear();
  });
  await waitCommitted(group, input);
  const seconds = (performance.now() - t0) / 1000;
  done = true;
  await Promise.all(loops);
  await stream.close();
  await consumer.close(true);
  for (const p of producers.values()) await p.close();
  return N / seconds;
}

try {
  await admin.connect();
  const codec = createValueCodec();
  const input = await topic('input');
  const p = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await p.connect();
  const values = [...generateLines(N, 42, 0)].map((line) => codec.encode('lines-request', JSON.parse(line)));
  for (let i = 0; i < values.length; i += 5000) {
    await p.send({ topic: input, messages: values.slice(i, i + 5000).map((value, j) => ({ key: `k-${i + j}`, value })) });
  }
  await p.disconnect();
  console.log(`input: ${N.toLocaleString('en')} records, ${PARTITIONS} partitions; ${availableParallelism()} cores, Node ${process.version}, broker ${brokers().join(',')}`);
  const rows: [string, number][] = [];
  const only = process.env.ADDRFLOW_BENCH_CLIENT_ONLY ?? '';
  for (const [name, fn] of [
    ['kafkajs 2.2.4 plain', () => kafkajsPassthrough(input, `${input}-kj-plain`, false)],
    ['@platformatic/kafka plain', () => platformaticPassthrough(input, `${input}-pk-plain`, 'plain')],
    ['kafkajs 2.2.4 transactional (producer per partition)', () => kafkajsPassthrough(input, `${input}-kj-tx`, true)],
    ['@platformatic/kafka transactional (KIP-447, one producer)', () => platformaticPassthrough(input, `${input}-pk-tx`, 'tx-one')],
    ['@platformatic/kafka transactional (KIP-447, producer per partition)', () => platformaticPassthrough(input, `${input}-pk-txp`, 'tx-per-partition')],
  ] as const) {
    if (only && !name.includes(only)) continue;
    const out = name.includes('kafkajs') ? (name.includes('plain') ? 'kj-plain' : 'kj-tx') : (name.includes('plain') ? 'pk-plain' : name.includes('per partition') ? 'pk-txp' : 'pk-tx');
    await admin.createTopics({ topics: [{ topic: `${input}-${out}`, numPartitions: PARTITIONS }], waitForLeaders: true });
    const rate = await fn();
    rows.push([name, rate]);
    console.log(`${name.padEnd(60)} ${Math.round(rate).toLocaleString('en').padStart(8)} records/s`);
  }
  const get = (s: string) => rows.find(([n]) => n.startsWith(s))?.[1];
  const kt = get('kafkajs 2.2.4 transactional');
  const pt = get('@platformatic/kafka transactional (KIP-447, one');
  const ptp = get('@platformatic/kafka transactional (KIP-447, producer per');
  if (kt && pt) console.log(`ratio @platformatic/kafka / kafkajs, transactional, one producer:       ${(pt / kt).toFixed(2)}`);
  if (kt && ptp) console.log(`ratio @platformatic/kafka / kafkajs, transactional, producer per partition: ${(ptp / kt).toFixed(2)}`);
  const kp = get('kafkajs 2.2.4 plain');
  const pp = get('@platformatic/kafka plain');
  if (kp && pp) console.log(`ratio @platformatic/kafka / kafkajs, plain:         ${(pp / kp).toFixed(2)}`);
} finally {
  await admin.disconnect();
  if (startedBroker) spawnSync('bash', [join(root, 'scripts/kafka-stop.sh')], { stdio: 'inherit' });
}
