/**
 * The four topics of the stream worker and the settings `addrflow topics create` gives them, and
 * the check of an existing topic against them. Pure: no client here (./ensure.ts talks to Kafka).
 *
 * Why these settings (the worker writes results, ledger entries and DLQ records exactly once, in
 * transactions, and reads its input with read_committed):
 *  - partitions: the same number on all four (default 6, as docker-compose's kafka-init). Input
 *    partitions bound how many workers share the work; the outputs are keyed by the request's key
 *    and ledger id, and the same count lets their consumers scale like the workers. An existing
 *    topic with FEWER partitions than asked is reported (more is fine: it only allows more workers).
 *  - replication: min(3, brokers in the cluster) unless given; fewer replicas than asked is
 *    reported. With replication > 1, `min.insync.replicas=2`: an acknowledged write (the worker's
 *    producers use acks=all) is then on two brokers, so no committed result or ledger entry is lost
 *    with one broker; with replication 2 this chooses durability over availability (writes wait
 *    while a broker is down; the worker retries, nothing is skipped).
 *  - `unclean.leader.election.enable=false` everywhere: an out-of-sync replica never becomes
 *    leader, which would silently drop committed records (the broker default; set explicitly so a
 *    cluster-wide override does not apply).
 *  - `cleanup.policy=delete` everywhere: compaction keeps one record per key, and keys here are
 *    the caller's message keys (results, DLQ: they repeat) or ledger ids (the billing store is the
 *    ledger of record; the topic is its stream, which must keep every entry).
 *  - retention: input and results 7 days (explicit, so a short broker default cannot drop results
 *    before they are read); DLQ 30 days (time to look at a rejected record and replay it); ledger
 *    unlimited (`retention.ms=-1`): it is billing evidence, deleting it is the operator's choice.
 */

export type TopicRole = 'input' | 'results' | 'ledger' | 'dlq';
export const TOPIC_ROLES: readonly TopicRole[] = ['input', 'results', 'ledger', 'dlq'];

export type TopicNames = Record<TopicRole, string>;

export const DEFAULT_PARTITIONS = 6;
/** The replication factor wanted when the cluster has enough brokers. */
export const PREFERRED_REPLICATION = 3;
/** min.insync.replicas of a replicated topic. */
export const MIN_INSYNC_REPLICAS = 2;

const DAY_MS = 24 * 60 * 60 * 1000;
const RETENTION_MS: Record<TopicRole, number> = { input: 7 * DAY_MS, results: 7 * DAY_MS, dlq: 30 * DAY_MS, ledger: -1 };

export interface TopicSpec {
  role: TopicRole;
  name: string;
  partitions: number;
  replicationFactor: number;
  /** Topic-level settings given at creation. */
  configs: Record<string, string>;
}

/** The replication factor used when none is given: min(3, brokers). */
export function defaultReplication(brokerCount: number): number {
  return Math.max(1, Math.min(PREFERRED_REPLICATION, brokerCount));
}

export function planTopics(names: TopicNames, opts: { partitions: number; replicationFactor: number }): TopicSpec[] {
  return TOPIC_ROLES.map((role) => {
    const configs: Record<string, string> = {
      'cleanup.policy': 'delete',
      'retention.ms': String(RETENTION_MS[role]),
      'unclean.leader.election.enable': 'false',
    };
    if (opts.replicationFactor > 1) configs['min.insync.replicas'] = String(Math.min(MIN_INSYNC_REPLICAS, opts.replicationFactor));
    return { role, name: names[role], partitions: opts.partitions, replicationFactor: opts.replicationFactor, configs };
  });
}

/** What an existing topic has (from the cluster's metadata and DescribeConfigs). */
export interface TopicState {
  partitions: number;
  replicationFactor: number;
  configs: Record<string, string | null>;
}

/** The config names whose values `problemsOf` checks (what DescribeConfigs is asked for). */
export const CHECKED_CONFIGS = ['cleanup.policy', 'retention.ms', 'min.insync.replicas', 'unclean.leader.election.enable'];

/**
 * Why an existing topic does not fit the plan, one sentence each (empty = fine). Only what can
 * break the pipeline or lose records counts; other differences (e.g. a longer retention) are the
 * operator's choice.
 */
export function problemsOf(spec: TopicSpec, actual: TopicState): string[] {
  const out: string[] = [];
  if (actual.partitions < spec.partitions) {
    out.push(`${actual.partitions} partitions, fewer than ${spec.partitions} (add some with kafka-topics.sh --alter --partitions ${spec.partitions})`);
  }
  if (actual.replicationFactor < spec.replicationFactor) {
    out.push(`replication factor ${actual.replicationFactor}, below ${spec.replicationFactor}`);
  }
  const policy = actual.configs['cleanup.policy'] ?? 'delete';
  if (policy.split(',').map((s) => s.trim()).includes('compact')) {
    out.push(`cleanup.policy=${policy}: compaction would drop records that share a key (set cleanup.policy=delete)`);
  }
  if (actual.configs['unclean.leader.election.enable'] === 'true') {
    out.push('unclean.leader.election.enable=true: a lagging replica could become leader and lose committed records');
  }
  const wantIsr = Number(spec.configs['min.insync.replicas'] ?? 1);
  const isr = Number(actual.configs['min.insync.replicas'] ?? 1);
  if (isr < wantIsr) out.push(`min.insync.replicas=${isr}, below ${wantIsr}: an acknowledged write could sit on one broker only`);
  return out;
}

/**
 * Differences worth saying that break nothing: the pipeline keeps working, but the operator may
 * not have meant it (a ledger topic that deletes entries after its retention).
 */
export function notesOf(spec: TopicSpec, actual: TopicState): string[] {
  const out: string[] = [];
  if (spec.role === 'ledger') {
    const ret = Number(actual.configs['retention.ms'] ?? -1);
    if (ret >= 0) out.push(`retention.ms=${ret}: the ledger topic deletes entries after ${Math.round(ret / 86_400_000)} days (retention.ms=-1 keeps them)`);
  }
  return out;
}
