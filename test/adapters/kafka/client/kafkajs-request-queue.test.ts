/**
 * The kafkajs negative-timer fix: the delay rule, and that kafkajs connections print no
 * TimeoutNegativeWarning (a child process, so that the warning, if any, is seen on its stderr).
 */
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { nextCheckDelay, requestQueueFixed } from '../../../../src/adapters/kafka/client/kafkajs-request-queue.ts';
import { describeWithKafka } from '../../../helpers/kafka.ts';

it('schedules a check only when something is pending or throttled', () => {
  const now = 1_000_000;
  expect(nextCheckDelay(-1, now, 0)).toBeUndefined(); // idle, not throttled: no timer (kafkajs: a negative one)
  expect(nextCheckDelay(now - 5, now, 0)).toBeUndefined();
  expect(nextCheckDelay(now + 200, now, 0)).toBe(200); // throttled: at the end of the throttle
  expect(nextCheckDelay(now + 200, now, 3)).toBe(200);
  expect(nextCheckDelay(-1, now, 3)).toBe(10); // pending, not throttled: kafkajs's 10 ms interval
  expect(requestQueueFixed()).toBe(true);
});

await describeWithKafka('kafkajs on Node 24', (brokers) => {
  it('prints no TimeoutNegativeWarning with the fix (and does without it)', () => {
    const script = (fix: boolean) => `
      ${fix ? "await import('./src/adapters/kafka/client/kafkajs.ts');" : ''}
      const { Kafka, logLevel } = await import('kafkajs');
      const admin = new Kafka({ clientId: 'warn-test', brokers: ${JSON.stringify(brokers())}, logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
      await admin.listTopics();
      await new Promise((r) => setTimeout(r, 300));
      await admin.disconnect();`;
    const run = (fix: boolean) => spawnSync(process.execPath, ['--input-type=module', '-e', script(fix)], { encoding: 'utf8', timeout: 60_000 });
    const fixed = run(true);
    expect(fixed.status, fixed.stderr).toBe(0);
    expect(fixed.stderr).not.toMatch(/Warning/);
    const unfixed = run(false);
    expect(unfixed.status, unfixed.stderr).toBe(0);
    expect(unfixed.stderr).toMatch(/TimeoutNegativeWarning/); // the fix is still needed: kafkajs unchanged
  });
});
