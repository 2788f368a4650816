/**
 * Vitest global setup. Later suites (Kafka, PostgreSQL) register their resources here so that a
 * broker or a database is started once per run, not once per file.
 */
import type { TestProject } from 'vitest/node';
import { kafkaGlobalSetup } from './kafka-broker.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Kafka: a lazy service; a broker starts only if a test file asks for one (test/helpers/kafka.ts).
  const kafkaTeardown = await kafkaGlobalSetup(project);
  return async () => {
    await kafkaTeardown();
  };
}
