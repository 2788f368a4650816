/**
 * The worker's topics on a real cluster (@platformatic/kafka's Admin, the project's default
 * client, on the connection's TLS/SASL settings): create the missing ones with the plan's settings
 * (./plan.ts), check the existing ones against it, and — for a worker at start — require that all
 * exist, with one coded line naming the way to create them.
 */
import { ConfigResourceTypes, type Admin } from '@platformatic/kafka';
import { StartError } from '../../../contract/errors.ts';
import type { KafkaConnection } from '../client/connection.ts';
import { hasKafkaError } from '../client/platformatic.ts';
import { reachCluster, startErrorFor } from '../client/reach-cluster.ts';
import { CHECKED_CONFIGS, DEFAULT_PARTITIONS, defaultReplication, notesOf, planTopics, problemsOf, TOPIC_ROLES, type TopicNames, type TopicRole, type TopicSpec, type TopicState } from './plan.ts';

export interface TopicReport {
  role: TopicRole;
  topic: string;
  /** created now; exists and fits the plan; exists but does not (see problems); missing (check only). */
  status: 'created' | 'exists' | 'mismatch' | 'missing';
  partitions?: number;
  replicationFactor?: number;
  configs?: Record<string, string | null>;
  problems?: string[];
  notes?: string[];
}

export interface EnsureOptions {
  /** Create missing topics (false: only check). */
  create: boolean;
  /**
   * Partitions of a created topic, and the fewest an existing one may have. Not given: created
   * with DEFAULT_PARTITIONS, and any existing count is accepted (the operator chose it).
   */
  partitions?: number;
  /** Default: min(3, brokers in the cluster). */
  replicationFactor?: number;
  clientId?: string;
  /** Bound of the first contact (reach-cluster.ts). */
  waitMs?: number;
}

export interface EnsureResult {
  reports: TopicReport[];
  replicationFactor: number;
  brokerCount: number;
}

/** How long a topic just created may take to appear in the metadata of the broker asked. */
const METADATA_SETTLE_MS = 15_000;

/** The cluster metadata of the topics, asked again while a just-created one is not in it yet. */
async function metadataOf(admin: Admin, names: string[]): Promise<Awaited<ReturnType<Admin['metadata']>>> {
  const deadline = Date.now() + METADATA_SETTLE_MS;
  while (true) {
    try {
      return await admin.metadata({ topics: names, forceUpdate: true });
    } catch (err) {
      // CreateTopics answers once the controller has the topic; a broker learns of it a moment later
      const unknown = err instanceof Error && /unknown topic/i.test(err.message);
      if (!unknown || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function stateOf(admin: Admin, names: string[]): Promise<Map<string, TopicState>> {
  const md = await metadataOf(admin, names);
  const described = await admin.describeConfigs({
    resources: names.map((name) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName: name, configurationKeys: CHECKED_CONFIGS })),
  });
  const out = new Map<string, TopicState>();
  for (const name of names) {
    const t = md.topics.get(name);
    if (!t) continue;
    const configs: Record<string, string | null> = {};
    for (const c of described.find((d) => d.resourceName === name)?.configs ?? []) configs[c.name] = c.value ?? null;
    out.set(name, { partitions: t.partitionsCount, replicationFactor: t.partitions[0]?.replicas.length ?? 0, configs });
  }
  return out;
}

async function createOne(admin: Admin, spec: TopicSpec): Promise<'created' | 'exists'> {
  try {
    await admin.createTopics({
      topics: [spec.name], partitions: spec.partitions, replicas: spec.replicationFactor,
      configs: Object.entries(spec.configs).map(([name, value]) => ({ name, value })),
    });
    return 'created';
  } catch (err) {
    // another `topics create` (or a worker's --create-topics) got there first: check it like any existing topic
    if (hasKafkaError(err, new Set(['TOPIC_ALREADY_EXISTS']))) return 'exists';
    throw err;
  }
}

/**
 * Creates the missing topics (when `create`) and reports on all four. Idempotent: a topic that
 * exists with fitting settings is left as it is ("exists"); one that does not fit is never altered
 * ("mismatch", with its problems). Throws a StartError when the cluster cannot be used.
 */
export async function ensureTopics(c: KafkaConnection, names: TopicNames, o: EnsureOptions): Promise<EnsureResult> {
  const { admin, topics, brokerCount } = await reachCluster(c, { clientId: o.clientId ?? 'addrflow-topics', ...(o.waitMs !== undefined ? { waitMs: o.waitMs } : {}) });
  try {
    const replicationFactor = o.replicationFactor ?? defaultReplication(brokerCount);
    const specs = planTopics(names, { partitions: o.partitions ?? DEFAULT_PARTITIONS, replicationFactor });
    // what an existing topic is held to: the partitions only when asked for
    const wanted = (spec: TopicSpec): TopicSpec => (o.partitions === undefined ? { ...spec, partitions: 1 } : spec);
    const status = new Map<string, TopicReport['status']>();
    for (const spec of specs) {
      if (topics.has(spec.name)) status.set(spec.name, 'exists');
      else if (!o.create) status.set(spec.name, 'missing');
      else {
        if (replicationFactor > brokerCount) {
          throw new StartError('KAFKA_TOPIC_SETTINGS', `replication factor ${replicationFactor} for ${spec.name}, but ${c.brokers.join(',')} has ${brokerCount} broker(s): give --replication-factor ${brokerCount} or fewer`);
        }
        status.set(spec.name, await createOne(admin, spec));
      }
    }
    const present = specs.filter((s) => status.get(s.name) !== 'missing').map((s) => s.name);
    const states = present.length ? await stateOf(admin, [...new Set(present)]) : new Map<string, TopicState>();
    const reports = specs.map((spec): TopicReport => {
      const st = status.get(spec.name)!;
      const actual = states.get(spec.name);
      if (st === 'missing' || !actual) return { role: spec.role, topic: spec.name, status: 'missing' };
      const problems = st === 'created' ? [] : problemsOf(wanted(spec), actual);
      const notes = notesOf(spec, actual);
      return {
        role: spec.role, topic: spec.name, status: problems.length ? 'mismatch' : st,
        partitions: actual.partitions, replicationFactor: actual.replicationFactor, configs: actual.configs,
        ...(problems.length ? { problems } : {}), ...(notes.length ? { notes } : {}),
      };
    });
    return { reports, replicationFactor, brokerCount };
  } catch (err) {
    throw startErrorFor(err, c);
  } finally {
    await admin.close().catch(() => {});
  }
}

/** The command that creates the worker's topics, for the line that says they are missing. */
export function createCommandFor(c: KafkaConnection, names: TopicNames): string {
  const security = c.tls || c.sasl ? ' + the same TLS/SASL settings' : '';
  return `'addrflow topics create --brokers ${c.brokers.join(',')} --input-topic ${names.input} --results-topic ${names.results} --ledger-topic ${names.ledger} --dlq-topic ${names.dlq}'${security}`;
}

/** The StartError of missing topics: one line, naming them, the brokers and how to create them. */
export function topicsMissingError(c: KafkaConnection, names: TopicNames, missing: readonly string[]): StartError {
  return new StartError('KAFKA_TOPIC_MISSING',
    `topic(s) ${missing.join(', ')} not found on ${c.brokers.join(',')}; create them with ${createCommandFor(c, names)} (or consume --create-topics)`);
}

/**
 * A worker's first step: the cluster answers (bounded wait), the credentials are accepted, and
 * the four topics exist. Throws the coded StartError otherwise; both worker implementations call it.
 */
export async function requireTopics(c: KafkaConnection, names: TopicNames, opts: { clientId: string; waitMs?: number }): Promise<void> {
  const { admin, topics } = await reachCluster(c, opts);
  await admin.close().catch(() => {});
  const wanted = [...new Set(TOPIC_ROLES.map((r) => names[r]))];
  const missing = wanted.filter((t) => !topics.has(t));
  if (missing.length) throw topicsMissingError(c, names, missing);
}
