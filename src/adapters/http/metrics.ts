/** Prometheus metrics of one server (own registry, so that several servers can live in one process). */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface HttpMetrics {
  registry: Registry;
  requests: Histogram<'route' | 'status'>;
  records: Counter<'op'>;
  charged: Counter<'op'>;
  /** Money steps (a request's reserve, its settle, a release) per billing-store transaction (group commit). */
  stepsPerCommit: Histogram;
  /** Single records per engine-pool task (src/adapters/http/coalescing-runner.ts). */
  singlesPerTask: Histogram;
  /** Single-record requests by the thread their engine ran on (src/adapters/http/single-route.ts). */
  singlesRanOn: Counter<'op' | 'thread'>;
}

export function createMetrics(withDefaults = true): HttpMetrics {
  const registry = new Registry();
  if (withDefaults) collectDefaultMetrics({ register: registry, prefix: 'addrflow_' });
  return {
    registry,
    requests: new Histogram({
      name: 'addrflow_http_request_duration_seconds',
      help: 'HTTP requests by route and status',
      labelNames: ['route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    records: new Counter({ name: 'addrflow_records_processed_total', help: 'Records run through the engine', labelNames: ['op'], registers: [registry] }),
    charged: new Counter({ name: 'addrflow_records_charged_total', help: 'Records charged (one ledger entry each)', labelNames: ['op'], registers: [registry] }),
    stepsPerCommit: new Histogram({
      name: 'addrflow_billing_steps_per_transaction',
      help: 'Money steps (reserve, settle, release, charge) committed together in one billing-store transaction (group commit); a single-record request makes one, a batch two',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers: [registry],
    }),
    singlesPerTask: new Histogram({
      name: 'addrflow_engine_single_records_per_task',
      help: 'Single-record requests sent to an engine thread together in one task (they group while every thread is busy)',
      buckets: [1, 2, 4, 8, 16, 32],
      registers: [registry],
    }),
    singlesRanOn: new Counter({
      name: 'addrflow_http_single_records_total',
      help: 'Single-record requests answered with their engine\'s outcome (a 402 is not), by the thread the engine ran on: event_loop (a recipient block), store (a lookup run on the SQLite store\'s thread with its charge) or pool (the engine pool; a lookup that overflowed there, or on PostgreSQL)',
      labelNames: ['op', 'thread'],
      registers: [registry],
    }),
  };
}
