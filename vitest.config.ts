import { defineConfig } from 'vitest/config';

/**
 * The exactly-once conformance suites of the Kafka worker (results, ledger, DLQ, credit pause,
 * rebalance, kill -9, broker restart, billing-store outage): the `kafkajs` project runs them a
 * second time on the kafkajs client (ADDRFLOW_KAFKA_CLIENT=kafkajs, read by the test harness and
 * inherited by the `addrflow consume` child processes); the `default` project runs every test on
 * the default client (@platformatic/kafka). `npx vitest run --project default` runs one side.
 */
export const KAFKA_WORKER_SUITES = [
  'test/adapters/kafka/worker.test.ts',
  'test/adapters/kafka/worker-billing.test.ts',
  'test/adapters/kafka/worker-crash.test.ts',
  'test/adapters/kafka/worker-faults.test.ts',
  'test/adapters/kafka/worker-postgres-outage.test.ts',
  'test/adapters/kafka/worker-postgres.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // 2-core CI machine: keep file parallelism modest so pool/Kafka tests get CPU.
    maxWorkers: 2,
    // The default report, then one plain closing line: `N passed, N failed, N skipped`.
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts', 'src/**/*.test.ts'] } },
      { extends: true, test: { name: 'kafkajs', include: KAFKA_WORKER_SUITES, env: { ADDRFLOW_KAFKA_CLIENT: 'kafkajs' } } },
    ],
  },
});
