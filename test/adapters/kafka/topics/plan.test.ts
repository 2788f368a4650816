/** The topics' settings and the check of an existing topic against them (pure; the broker side is test/readme/kafka-block.test.ts). */
import { describe, expect, it } from 'vitest';
import { classifyStartFailure } from '../../../../src/adapters/kafka/client/reach-cluster.ts';
import { defaultReplication, notesOf, planTopics, problemsOf, type TopicState } from '../../../../src/adapters/kafka/topics/plan.ts';

const names = { input: 'a.req', results: 'a.res', ledger: 'a.led', dlq: 'a.dlq' };
const fits = (configs: Record<string, string>, partitions = 6, replicationFactor = 3): TopicState => ({ partitions, replicationFactor, configs });

describe('planTopics', () => {
  it('replication min(3, brokers); min.insync.replicas 2 only when replicated', () => {
    expect([1, 2, 3, 5].map(defaultReplication)).toEqual([1, 2, 3, 3]);
    const one = planTopics(names, { partitions: 6, replicationFactor: 1 });
    expect(one.every((s) => !('min.insync.replicas' in s.configs))).toBe(true);
    const three = planTopics(names, { partitions: 6, replicationFactor: 3 });
    expect(three.map((s) => s.configs['min.insync.replicas'])).toEqual(['2', '2', '2', '2']);
    expect(planTopics(names, { partitions: 6, replicationFactor: 2 })[0]!.configs['min.insync.replicas']).toBe('2');
  });

  it('delete policy, no unclean election; retention 7 d / 7 d / unlimited / 30 d', () => {
    const specs = planTopics(names, { partitions: 4, replicationFactor: 1 });
    expect(specs.map((s) => [s.role, s.name, s.partitions])).toEqual([['input', 'a.req', 4], ['results', 'a.res', 4], ['ledger', 'a.led', 4], ['dlq', 'a.dlq', 4]]);
    expect(specs.map((s) => s.configs['retention.ms'])).toEqual(['604800000', '604800000', '-1', '2592000000']);
    expect(specs.every((s) => s.configs['cleanup.policy'] === 'delete' && s.configs['unclean.leader.election.enable'] === 'false')).toBe(true);
  });
});

describe('problemsOf an existing topic', () => {
  const [input, , ledger] = planTopics(names, { partitions: 6, replicationFactor: 3 });
  const good = { 'cleanup.policy': 'delete', 'min.insync.replicas': '2', 'unclean.leader.election.enable': 'false', 'retention.ms': '-1' };

  it('none when it fits; more partitions or replicas, a longer retention are fine', () => {
    expect(problemsOf(input!, fits(good))).toEqual([]);
    expect(problemsOf(input!, fits(good, 12, 5))).toEqual([]);
  });

  it('fewer partitions or replicas, compaction, unclean election, a lower min.insync.replicas', () => {
    expect(problemsOf(input!, fits(good, 3))).toEqual([expect.stringMatching(/^3 partitions, fewer than 6/)]);
    expect(problemsOf(input!, fits(good, 6, 1))).toEqual([expect.stringMatching(/replication factor 1, below 3/)]);
    expect(problemsOf(input!, fits({ ...good, 'cleanup.policy': 'compact,delete' }))).toEqual([expect.stringMatching(/compaction would drop/)]);
    expect(problemsOf(input!, fits({ ...good, 'unclean.leader.election.enable': 'true' }))).toEqual([expect.stringMatching(/unclean/)]);
    expect(problemsOf(input!, fits({ ...good, 'min.insync.replicas': '1' }))).toEqual([expect.stringMatching(/min.insync.replicas=1, below 2/)]);
  });

  it('a ledger topic with a finite retention is a note, not a problem', () => {
    const st = fits({ ...good, 'retention.ms': '604800000' });
    expect(problemsOf(ledger!, st)).toEqual([]);
    expect(notesOf(ledger!, st)).toEqual([expect.stringMatching(/deletes entries after 7 days/)]);
    expect(notesOf(input!, st)).toEqual([]);
  });
});

describe('classifyStartFailure', () => {
  const agg = (inner: Error) => Object.assign(new AggregateError([inner], 'Listing topics failed.'), { code: 'PLT_KFK_MULTIPLE' });
  it('network, refused credentials, TLS', () => {
    const net = Object.assign(new Error('Connection to 127.0.0.1:9 failed.'), { code: 'PLT_KFK_NETWORK', cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(classifyStartFailure(agg(net))).toBe('network');
    expect(classifyStartFailure(agg(Object.assign(new Error('SASL authentication failed.'), { code: 'PLT_KFK_AUTHENTICATION' })))).toBe('refused');
    expect(classifyStartFailure(agg(Object.assign(new Error('denied'), { code: 'PLT_KFK_PROTOCOL', apiId: 'TOPIC_AUTHORIZATION_FAILED' })))).toBe('refused');
    expect(classifyStartFailure(agg(Object.assign(new Error('self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' })))).toBe('tls');
    expect(classifyStartFailure(new Error('something else'))).toBe('other');
  });
});
