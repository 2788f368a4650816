/**
 * `addrflow topics create|check`: the stream worker's four topics (input, results, ledger, DLQ)
 * with the settings an exactly-once pipeline needs (src/adapters/kafka/topics/plan.ts), on the
 * same connection flags as `consume`. Prints one JSON line per topic on stdout.
 */
import { parseArgs } from 'node:util';
import { StartError } from '../../contract/errors.ts';
import { START_WAIT_MS } from '../../adapters/kafka/client/reach-cluster.ts';
import { ensureTopics, topicsMissingError } from '../../adapters/kafka/topics/ensure.ts';
import { DEFAULT_PARTITIONS, MIN_INSYNC_REPLICAS, PREFERRED_REPLICATION, type TopicNames } from '../../adapters/kafka/topics/plan.ts';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, CONNECTION_USAGE_LINES, connectionOf, refuseSecretFlags } from '../kafka-connection.ts';
import { intOption, requiredOption as required } from '../options.ts';
import { UsageError, type Command } from '../command.ts';

const usage = `usage: addrflow topics create|check --brokers H:P[,H:P] --input-topic T --results-topic T
                        --ledger-topic T [--dlq-topic T] [--partitions N] [--replication-factor N]
                        ${CONNECTION_USAGE_LINES}

  create  creates the topics that are missing, with the settings below, and checks the others;
          idempotent: run it again (or beside another) and existing topics are left as they are
  check   only checks: a missing topic is ADDR_ERR_KAFKA_TOPIC_MISSING (exit 12)

  Prints one JSON line per topic: {"role","topic","status":"created"|"exists"|"mismatch"|"missing",
  "partitions","replicationFactor","configs",["problems"],["notes"]}. A topic is never altered: one
  that exists with settings that can break the pipeline (fewer partitions or replicas than asked,
  cleanup.policy=compact, unclean leader election, min.insync.replicas below the plan) is
  "mismatch" with its problems, and the command ends with ADDR_ERR_KAFKA_TOPIC_SETTINGS (exit 12).

  --input-topic, --results-topic, --ledger-topic  the names given to 'addrflow consume'
  --dlq-topic           dead-letter topic (default: <input-topic>.dlq)
  --partitions          partitions of each new topic (default ${DEFAULT_PARTITIONS}), and the fewest an existing
                        one may have (default: any); the input's bound how many workers share the work
  --replication-factor  replicas of each topic (default: min(${PREFERRED_REPLICATION}, brokers in the cluster)); above 1,
                        min.insync.replicas=${MIN_INSYNC_REPLICAS} (acknowledged writes are on two brokers)
  Settings of every topic: cleanup.policy=delete, unclean.leader.election.enable=false; retention
  7 days (input, results), 30 days (DLQ), unlimited (ledger: billing evidence).

${CONNECTION_USAGE}

Brokers that do not answer within ${START_WAIT_MS / 1000} s: ADDR_ERR_KAFKA_UNREACHABLE (exit 12); refused
SASL credentials: ADDR_ERR_KAFKA_AUTH (exit 4).

Exit codes: 0 every topic exists with fitting settings; 2 usage error; 4 credentials refused;
12 brokers unreachable, a topic missing (check) or not fitting; 13 a TLS or password file cannot
be read or is not valid.`;

const command: Command = {
  usage,
  async run(argv) {
    refuseSecretFlags(argv);
    const [action, ...rest] = argv;
    if (action !== 'create' && action !== 'check') throw new UsageError(action === undefined ? 'say create or check' : `the action must be create or check, got ${action}`);
    const { values } = parseArgs({
      args: rest,
      options: {
        ...CONNECTION_OPTIONS,
        'input-topic': { type: 'string' },
        'results-topic': { type: 'string' },
        'ledger-topic': { type: 'string' },
        'dlq-topic': { type: 'string' },
        partitions: { type: 'string' },
        'replication-factor': { type: 'string' },
      },
      strict: true,
    });
    const input = required(values, 'input-topic');
    const names: TopicNames = {
      input, results: required(values, 'results-topic'), ledger: required(values, 'ledger-topic'), dlq: values['dlq-topic'] ?? `${input}.dlq`,
    };
    const partitions = values.partitions === undefined ? undefined : intOption('partitions', values.partitions, DEFAULT_PARTITIONS, 1, 10_000);
    const replicationFactor = values['replication-factor'] === undefined ? undefined : intOption('replication-factor', values['replication-factor'], 1, 1, 32);
    const connection = connectionOf(values);

    const { reports } = await ensureTopics(connection, names, {
      create: action === 'create', ...(partitions !== undefined ? { partitions } : {}), ...(replicationFactor !== undefined ? { replicationFactor } : {}),
    });
    for (const r of reports) process.stdout.write(JSON.stringify(r) + '\n');
    const missing = reports.filter((r) => r.status === 'missing').map((r) => r.topic);
    if (missing.length) throw topicsMissingError(connection, names, missing);
    const bad = reports.filter((r) => r.status === 'mismatch');
    if (bad.length) {
      throw new StartError('KAFKA_TOPIC_SETTINGS', bad.map((r) => `${r.topic}: ${r.problems!.join('; ')}`).join(' | ')
        + ' (existing topics are never altered: fix them with kafka-configs.sh / kafka-topics.sh --alter, or use new names)');
    }
    return 0;
  },
};

export default command;
