/**
 * Vitest global setup. Later suites (Kafka, PostgreSQL) register their resources here so that a
 * broker or a database is started once per run, not once per file.
 */
export default async function setup(): Promise<() => Promise<void>> {
  return async () => {};
}
