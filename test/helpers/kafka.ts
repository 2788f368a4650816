/**
 * The test side of the Kafka broker helper (see ./kafka-broker.ts for how a broker is found):
 * `getKafkaBrokers()` in a beforeAll, or `await describeWithKafka(name, (brokers) => …)` at the
 * top level of a test file. The broker is started once per run, only when asked for.
 */
import { describe, inject } from 'vitest';
import { parseBrokers, runningLocalBroker, type ServiceAnswer } from './kafka-broker.ts';

let cached: Promise<ServiceAnswer> | undefined;

async function askService(): Promise<ServiceAnswer> {
  const env = process.env.KAFKA_BROKERS?.trim();
  if (env) return { brokers: parseBrokers(env), description: `KAFKA_BROKERS=${env}` };
  let url = '';
  try {
    url = inject('kafkaBrokerService') ?? '';
  } catch {
    url = '';
  }
  if (!url) {
    // outside a run with the global setup: only a broker that already runs (npm run kafka:start)
    const running = runningLocalBroker();
    if (running) return { brokers: running };
    return { error: 'no KAFKA_BROKERS and no vitest global setup (test/helpers/global-setup.ts) to start a broker' };
  }
  const res = await fetch(url);
  return (await res.json()) as ServiceAnswer;
}

/** The brokers of this run (starting one if needed). Throws with the reason when there is none. */
export async function getKafkaBrokers(): Promise<string[]> {
  cached ??= askService();
  const answer = await cached;
  if (!answer.brokers) throw new Error(answer.error ?? 'no Kafka broker');
  return answer.brokers;
}

/**
 * `describe` for suites that need the real broker. Usage, at the top level of a test file:
 *   await describeWithKafka('worker', (brokers) => { it(…, async () => { …brokers()… }) });
 * Skips with the reason in the title when no broker can be had (fails under ADDRFLOW_REQUIRE_KAFKA=1).
 */
export async function describeWithKafka(name: string, fn: (brokers: () => string[]) => void): Promise<void> {
  let brokers: string[] | undefined;
  let reason = '';
  try {
    brokers = await getKafkaBrokers();
  } catch (e) {
    reason = e instanceof Error ? e.message : String(e);
    if (process.env.ADDRFLOW_REQUIRE_KAFKA === '1') throw new Error(`Kafka required (ADDRFLOW_REQUIRE_KAFKA=1): ${reason}`);
  }
  const get = (): string[] => {
    if (!brokers) throw new Error(reason);
    return brokers;
  };
  if (brokers) describe(`${name} [Kafka ${brokers.join(',')}]`, () => fn(get));
  else describe.skip(`${name} — SKIPPED: no Kafka broker (${reason})`, () => fn(get));
}
