/**
 * The first contact with the cluster, before a worker or `addrflow topics` does anything: one
 * @platformatic/kafka Admin on the connection's TLS/SASL settings, retried for a bounded time, and
 * every way it can fail turned into one coded StartError:
 *  - brokers that do not answer within START_WAIT_MS (30 s: long enough for a broker that is still
 *    starting, e.g. in docker compose; short enough for an orchestrator to see the failure) →
 *    ADDR_ERR_KAFKA_UNREACHABLE, exit 12, with the last reason (ECONNREFUSED, a timeout…);
 *  - a TLS handshake the client rejects (unknown CA, wrong name) → ADDR_ERR_KAFKA_UNREACHABLE at
 *    once: waiting does not change a certificate;
 *  - a refused SASL login, client certificate or ACL → ADDR_ERR_KAFKA_AUTH, exit 4, like any
 *    refused credentials, at once.
 * Both workers (kafkajs and @platformatic/kafka) and the topics command go through it, so they
 * fail the same way. Secrets never appear in a message.
 */
import { Admin } from '@platformatic/kafka';
import { StartError } from '../../../contract/errors.ts';
import type { KafkaConnection } from './connection.ts';
import { platformaticOptions } from './platformatic.ts';

/** How long the first contact waits for the brokers before ADDR_ERR_KAFKA_UNREACHABLE. */
export const START_WAIT_MS = 30_000;
/** Pause between two attempts while the brokers do not answer. */
const RETRY_PAUSE_MS = 1000;

/** Broker error names that mean "your credentials are refused" (Kafka protocol error codes). */
const REFUSED = new Set([
  'SASL_AUTHENTICATION_FAILED', 'ILLEGAL_SASL_STATE', 'UNSUPPORTED_SASL_MECHANISM',
  'TOPIC_AUTHORIZATION_FAILED', 'CLUSTER_AUTHORIZATION_FAILED', 'GROUP_AUTHORIZATION_FAILED',
  'TRANSACTIONAL_ID_AUTHORIZATION_FAILED', 'DELEGATION_TOKEN_AUTH_DISABLED',
]);

/** Every error in a (possibly nested: AggregateError, cause) error, the outermost first. */
function* chain(e: unknown, depth = 0): Generator<Error & { code?: unknown; apiId?: unknown }> {
  if (!(e instanceof Error) || depth > 8) return;
  yield e as Error & { code?: unknown; apiId?: unknown };
  for (const inner of (e as { errors?: unknown[] }).errors ?? []) yield* chain(inner, depth + 1);
  if (e.cause) yield* chain(e.cause, depth + 1);
}

export type StartFailure = 'refused' | 'tls' | 'network' | 'other';

/** What kind of failure an error of the client is (see the module comment). */
export function classifyStartFailure(err: unknown): StartFailure {
  const all = [...chain(err)];
  const codes = all.map((e) => String(e.code ?? ''));
  const text = all.map((e) => e.message).join(' ');
  if (all.some((e) => typeof e.apiId === 'string' && REFUSED.has(e.apiId))
    || codes.includes('PLT_KFK_AUTHENTICATION')
    || codes.some((c) => /CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN|ACCESS_DENIED/.test(c))
    || /authentication failed/i.test(text)) return 'refused';
  if (codes.some((c) => c.startsWith('ERR_TLS_') || c.startsWith('ERR_SSL_') || /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(c))) return 'tls';
  if (codes.some((c) => c === 'PLT_KFK_NETWORK' || c === 'PLT_KFK_TIMEOUT' || /^E[A-Z]+$/.test(c))) return 'network';
  return 'other';
}

/** The most telling reason in an error: the innermost message, with a system error code. */
export function reasonOf(err: unknown): string {
  const all = [...chain(err)];
  const sys = all.find((e) => typeof e.code === 'string' && /^(E[A-Z]+|ERR_[A-Z_]+|[A-Z_]*CERT[A-Z_]*)$/.test(e.code));
  const inner = all.filter((e) => !(e instanceof AggregateError)).at(-1) ?? all.at(-1);
  const msg = (inner?.message ?? String(err)).split('\n')[0]!;
  return sys && !msg.includes(String(sys.code)) ? `${msg} (${String(sys.code)})` : msg;
}

/** The StartError for a failure of the first contact (or of a later admin call at start). */
export function startErrorFor(err: unknown, c: KafkaConnection, waitedMs?: number): StartError {
  if (err instanceof StartError) return err;
  const where = c.brokers.join(',');
  const kind = classifyStartFailure(err);
  const reason = reasonOf(err);
  if (kind === 'refused') {
    const who = c.sasl ? `SASL ${c.sasl.mechanism} user ${c.sasl.username}` : c.tls?.cert ? 'the TLS client certificate' : 'this client';
    return new StartError('KAFKA_AUTH', `${where} refused ${who}: ${reason}; check the credentials (docs: README, "Managed Kafka")`, { cause: err });
  }
  if (kind === 'tls') {
    return new StartError('KAFKA_UNREACHABLE', `TLS to ${where} failed: ${reason}; check --tls-ca / --tls-servername`, { cause: err });
  }
  const waited = waitedMs !== undefined ? ` within ${Math.round(waitedMs / 1000)} s` : '';
  return new StartError('KAFKA_UNREACHABLE', `brokers ${where} not reachable${waited}: ${reason}`, { cause: err });
}

export interface ReachedCluster {
  admin: Admin;
  /** Names of the topics the client may see. */
  topics: Set<string>;
  /** How many brokers the cluster has (bounds the replication factor). */
  brokerCount: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Opens an Admin and lists the cluster's topics and brokers, retrying while the brokers do not
 * answer, for at most `waitMs`. The caller closes `admin`. Throws a StartError (see above).
 */
export async function reachCluster(c: KafkaConnection, opts: { clientId: string; waitMs?: number }): Promise<ReachedCluster> {
  const waitMs = opts.waitMs ?? START_WAIT_MS;
  const deadline = Date.now() + waitMs;
  let last: unknown;
  while (true) {
    const left = deadline - Date.now();
    // no retries inside the client: this loop is the retry, and it keeps the bound
    const admin = new Admin({
      ...platformaticOptions(c, opts.clientId), retries: 0,
      connectTimeout: Math.max(1000, Math.min(5000, left)), timeout: Math.max(1000, Math.min(10_000, left)),
    });
    try {
      const md = await admin.metadata({ topics: [] as string[], forceUpdate: true } as never);
      const topics = new Set(await admin.listTopics());
      return { admin, topics, brokerCount: md.brokers.size };
    } catch (err) {
      await admin.close().catch(() => {});
      last = err;
      const kind = classifyStartFailure(err);
      if (kind !== 'network' || Date.now() + RETRY_PAUSE_MS >= deadline) throw startErrorFor(err, c, kind === 'network' ? waitMs : undefined);
      await sleep(RETRY_PAUSE_MS);
    }
    if (Date.now() >= deadline) throw startErrorFor(last, c, waitMs);
  }
}
