import { describe, expect, it } from 'vitest';
import { DEFAULT_KAFKA_CLIENT, kafkaClientFrom } from '../../../src/adapters/kafka/worker-client.ts';

describe('the worker\'s Kafka client choice', () => {
  it('flag over environment over the default; an unknown name is refused with the choices', () => {
    expect(kafkaClientFrom(undefined, {})).toBe(DEFAULT_KAFKA_CLIENT);
    expect(kafkaClientFrom(undefined, { ADDRFLOW_KAFKA_CLIENT: 'platformatic' })).toBe('platformatic');
    expect(kafkaClientFrom('kafkajs', { ADDRFLOW_KAFKA_CLIENT: 'platformatic' })).toBe('kafkajs');
    expect(() => kafkaClientFrom('rdkafka', {})).toThrow(/kafkajs, platformatic.*rdkafka/);
  });
});
