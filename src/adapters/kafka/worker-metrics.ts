/**
 * Prometheus metrics of the stream worker (own registry) and its small HTTP endpoint:
 * `GET /metrics` (text format) and `GET /healthz` (200 while the consumer runs, 503 otherwise).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface WorkerMetrics {
  registry: Registry;
  records: Counter<'op'>;
  charged: Counter<'op'>;
  dlq: Counter;
  batches: Counter;
  aborts: Counter;
  lag: Gauge<'topic' | 'partition'>;
  paused: Gauge<'topic' | 'partition'>;
  /** Consecutive failed attempts of the batch at the head of a partition (0 once one commits). */
  failing: Gauge<'topic' | 'partition'>;
  rate: Gauge;
  batchSeconds: Histogram;
  /** Call after each committed batch: feeds the records-per-second gauge. */
  noteProcessed(n: number): void;
}

const RATE_WINDOW_MS = 10_000;

export function createWorkerMetrics(withDefaults = true): WorkerMetrics {
  const registry = new Registry();
  if (withDefaults) collectDefaultMetrics({ register: registry, prefix: 'addrflow_' });
  const registers = [registry];
  const window: Array<[number, number]> = [];
  const rate = new Gauge({
    name: 'addrflow_kafka_records_per_second',
    help: `Input records committed per second over the last ${RATE_WINDOW_MS / 1000} s`,
    registers,
    collect() {
      const now = Date.now();
      while (window.length && window[0]![0] < now - RATE_WINDOW_MS) window.shift();
      this.set(window.reduce((s, [, n]) => s + n, 0) / (RATE_WINDOW_MS / 1000));
    },
  });
  return {
    registry,
    records: new Counter({ name: 'addrflow_kafka_records_processed_total', help: 'Decodable input records run through the engine and committed, by op', labelNames: ['op'], registers }),
    charged: new Counter({ name: 'addrflow_kafka_records_charged_total', help: 'Records charged (one ledger entry each), by op', labelNames: ['op'], registers }),
    dlq: new Counter({ name: 'addrflow_kafka_dlq_records_total', help: 'Undecodable input records sent to the DLQ', registers }),
    batches: new Counter({ name: 'addrflow_kafka_batches_committed_total', help: 'Kafka transactions committed (one per processed batch)', registers }),
    aborts: new Counter({ name: 'addrflow_kafka_transactions_aborted_total', help: 'Batches whose transaction was aborted (redelivered)', registers }),
    lag: new Gauge({ name: 'addrflow_kafka_consumer_lag', help: 'High watermark minus the next offset to process, per input partition', labelNames: ['topic', 'partition'], registers }),
    paused: new Gauge({ name: 'addrflow_kafka_partition_paused', help: '1 while an input partition is paused because the balance ran out', labelNames: ['topic', 'partition'], registers }),
    failing: new Gauge({ name: 'addrflow_kafka_partition_failed_attempts', help: 'Consecutive failed attempts of the batch at the head of an input partition (0 once a batch commits)', labelNames: ['topic', 'partition'], registers }),
    rate,
    batchSeconds: new Histogram({
      name: 'addrflow_kafka_batch_duration_seconds', help: 'Decode, engine, billing and transaction of one batch',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers,
    }),
    noteProcessed(n) {
      window.push([Date.now(), n]);
    },
  };
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function serveMetrics(
  metrics: WorkerMetrics, port: number, host: string, healthy: () => boolean,
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (path === '/metrics') {
      metrics.registry.metrics().then(
        (body) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body),
        () => res.writeHead(500).end(),
      );
    } else if (path === '/healthz') {
      const ok = healthy();
      res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ok ? 'ok' : 'down' }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
