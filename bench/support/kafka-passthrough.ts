/**
 * The Kafka worker's same-client floor (issue 20): a transactional passthrough on the worker's
 * own client port (src/adapters/kafka/client-port.ts), carrying the worker's volume. Per input
 * record it writes one result-sized message (the input's key, a result's value and headers) to a
 * results topic and one ledger-sized message (a ledger entry's key and value) to a ledger topic;
 * per slice of at most 2,000 records of one partition one transaction (a producer per input
 * partition, the group's offset in the transaction, commit), up to 4 partitions at a time, the
 * produce requests cut as the worker cuts them. No decode, billing, engine or encoding: what the
 * client and the broker cost for that traffic with exactly-once.
 */
import type { ConsumeHandlers, PortMessage } from '../../src/adapters/kafka/client-port.ts';
import type { OutMessage } from '../../src/adapters/kafka/output-messages.ts';
import { DEFAULT_MAX_BATCH_RECORDS, MAX_SEND_BYTES, requestsBySize } from '../../src/adapters/kafka/slice.ts';
import { createClientPort, type KafkaClientName } from '../../src/adapters/kafka/worker-client.ts';
import { createLogger } from '../../src/log.ts';

export interface PassthroughOptions {
  client: KafkaClientName;
  brokers: string[];
  group: string;
  input: string;
  results: string;
  ledger: string;
  /** Records to move (the input topic's size). */
  records: number;
  /** What the worker wrote: values (and headers) the passthrough writes again, in turn. */
  templates: { results: OutMessage[]; ledger: OutMessage[] };
  /** Resolves once the group's committed offsets reach the end of the input. */
  committed(): Promise<void>;
}

/** Moves the input through; answers records/s from start to the last committed offset. */
export async function transactionalPassthrough(o: PassthroughOptions): Promise<number> {
  const port = createClientPort(o.client, {
    connection: { brokers: o.brokers }, group: o.group, inputTopic: o.input, transactionalIdPrefix: o.group,
    clientId: 'bench-passthrough', sessionTimeoutMs: 30_000, transactionTimeoutMs: 60_000, log: createLogger({ level: 'warn' }),
  });
  const queues = new Map<number, PortMessage[]>();
  const busy = new Set<number>();
  let failure: Error | undefined;
  let n = 0;
  const { results, ledger } = o.templates;

  async function drain(partition: number): Promise<void> {
    const q = queues.get(partition)!;
    while (q.length > 0) {
      const part = q.splice(0, DEFAULT_MAX_BATCH_RECORDS);
      const tx = await port.begin(partition);
      const res: OutMessage[] = [];
      const led: OutMessage[] = [];
      for (const m of part) {
        const r = results[n % results.length]!;
        const l = ledger[n % ledger.length]!;
        n++;
        res.push({ key: m.key, value: r.value, ...(r.headers ? { headers: r.headers } : {}) });
        led.push({ key: l.key, value: l.value });
      }
      for (const request of requestsBySize([{ topic: o.results, messages: res }, { topic: o.ledger, messages: led }], MAX_SEND_BYTES)) await tx.send(request);
      await tx.commitOffset(partition, (part[part.length - 1]!.offsetValue + 1n).toString());
      await tx.commit();
    }
  }

  function schedule(): void {
    for (const [p, q] of queues) {
      if (busy.size >= 4) return;
      if (q.length === 0 || busy.has(p)) continue;
      busy.add(p);
      void drain(p).catch((e: Error) => (failure = e)).finally(() => {
        busy.delete(p);
        schedule();
      });
    }
  }

  // drained once the records of a delivery are all queued, as the worker does (worker.ts enqueue)
  let drainSoon: NodeJS.Immediate | undefined;
  const handlers: ConsumeHandlers = {
    message: (p, m) => {
      let q = queues.get(p);
      if (!q) queues.set(p, (q = []));
      q.push(m);
      drainSoon ??= setImmediate(() => {
        drainSoon = undefined;
        schedule();
      });
    },
    assigned: () => {},
    failed: (e) => (failure = e),
    warn: () => {},
  };
  const t0 = performance.now();
  await port.connect();
  await port.consume(handlers);
  const done = o.committed();
  let watch: NodeJS.Timeout | undefined;
  await Promise.race([done, new Promise<never>((_, reject) => {
    watch = setInterval(() => failure && reject(failure), 100);
  })]).finally(() => clearInterval(watch));
  const seconds = (performance.now() - t0) / 1000;
  await port.closeConsumer();
  await port.closeProducers();
  await port.closeAdmin();
  return o.records / seconds;
}
