/**
 * `addrflow consume`: the Kafka stream worker (src/adapters/kafka/worker.ts). Runs until SIGTERM /
 * SIGINT, then finishes the batch in flight and its transaction and exits 0.
 */
import { parseArgs } from 'node:util';
import { OPS, type Op } from '../../contract/params.ts';
import { parseRegistryIds } from '../../adapters/kafka/avro/index.ts';
import { runConsumer } from '../../adapters/kafka/run-consumer.ts';
import { kafkaClientFrom, KAFKA_CLIENT_ENV, type KafkaClientName } from '../../adapters/kafka/worker-client.ts';
import { START_WAIT_MS } from '../../adapters/kafka/client/reach-cluster.ts';
import { DEFAULT_PARTITIONS } from '../../adapters/kafka/topics/plan.ts';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, CONNECTION_USAGE_LINES, connectionOf, refuseSecretFlags } from '../kafka-connection.ts';
import { loadIndexForOp } from '../load-index.ts';
import { UsageError, type Command } from '../command.ts';
import { credentialsFrom } from '../credentials.ts';
import { intOption, oneOf, preferCountryOption, requiredOption as required } from '../options.ts';
import { checkCanListen, listenError } from '../fault.ts';

const usage = `usage: addrflow consume --brokers H:P[,H:P] --group G --input-topic T --results-topic T
                        --ledger-topic T [--dlq-topic T] --license L --guid G [--db URL]
                        [--index DIR] [--op search|lines] [--value-format avro|json] [--workers N]
                        [--metrics-port P] [--metrics-host H] [--transactional-id-prefix X]
                        [--registry-ids subject.vN=id,…] [--session-timeout MS]
                        [--credit-check-interval MS] [--concurrency N] [--create-topics] [--explain]
                        [--prefer-country CC]
                        ${CONNECTION_USAGE_LINES}

  Reads request records (one element each; Avro or JSON values) from the input topic and writes,
  exactly once per input record, the result to the results topic and one ledger entry per
  charged record to the ledger topic; undecodable records go to the DLQ with the reason in
  headers. Results, ledger entries and consumer offsets are committed in one Kafka transaction
  per batch. Start more instances with the same --group to share the partitions.

  --brokers        bootstrap brokers (comma-separated)
  --group          consumer group id
  --dlq-topic      dead-letter topic (default: <input-topic>.dlq)
                   Every topic must exist: create them with 'addrflow topics create' (same topic
                   and connection flags; settings in its --help), or give --create-topics. A
                   missing topic stops the worker at start: ADDR_ERR_KAFKA_TOPIC_MISSING, exit 12
  --create-topics  create the missing topics first, as 'addrflow topics create' with its defaults
                   (${DEFAULT_PARTITIONS} partitions, replication min(3, brokers)); an existing topic whose
                   settings can break the pipeline stops the worker (ADDR_ERR_KAFKA_TOPIC_SETTINGS, exit 12)
  --license, --guid  the account charged (refused credentials: exit 4, nothing is consumed);
                   env ADDRFLOW_LICENSE / ADDRFLOW_GUID keep them out of the process list
  --db             billing store: sqlite:PATH (default sqlite:data/addrflow.sqlite) or postgres://…
                   (env ADDRFLOW_DB); several workers share the balance through it
  --index          address index directory for search (default: the embedded index)
  --op             every record is this op (otherwise Avro: the schema; JSON: its "op" field)
  --prefer-country search: a soft default country (ISO code of a destination) for records that
                   give no country: it decides among the countries a record leaves open and
                   excludes none, unlike 'country'; a record's own 'prefer_country' wins
  --value-format   result and ledger values: avro (single-object encoding; Confluent framing with
                   --registry-ids) or json (default avro); input accepts both
  --explain        every search result explains its answer (input parts matched, corrected,
                   inferred or ignored; each relevance deduction with its points): Avro values are
                   written as search-result v2 (its \`explain\` field), JSON values get an \`explain\`
                   key. Without it results are v1 and an element's own \`explain\` key is not obeyed
                   (docs/kafka-values.md). Explanations are never logged
  --workers        engine worker threads (default: cores − 1, at least 1: the main thread runs
                   the Kafka client)
  --metrics-port   GET /metrics and /healthz on this port (default 9464; 0 = any free port);
                   /healthz answers 503 while a batch has failed 3 times in a row (it is retried
                   with a back-off up to 30 s, never skipped)
  --transactional-id-prefix  prefix of the per-partition transactional ids (default addrflow-<group>)
  --session-timeout  consumer group session timeout in ms (default 30000)
  --credit-check-interval  how often a worker paused for credits checks the balance (ms, default 5000)
  --concurrency    input partitions processed at the same time (default 4)
  --kafka-client   platformatic (@platformatic/kafka, default) or kafkajs: the client of the
                   worker's data path, same guarantees (env ADDRFLOW_KAFKA_CLIENT;
                   docs/kafka-values.md)

${CONNECTION_USAGE}

SIGTERM/SIGINT: the batch in flight finishes and commits, then the worker exits — within 30 s,
broker reachable or not (a batch it could not finish is processed again by the next worker).

Brokers that do not answer at start are waited for ${START_WAIT_MS / 1000} s, then ADDR_ERR_KAFKA_UNREACHABLE.

Exit codes: 0 stopped by SIGTERM/SIGINT; 1 the consumer failed (or the stop hung past its bound);
2 usage error; 4 credentials refused (license/guid, or the Kafka SASL login: ADDR_ERR_KAFKA_AUTH);
5 index unusable; 6 billing store; 12 Kafka unusable at start (ADDR_ERR_KAFKA_UNREACHABLE,
ADDR_ERR_KAFKA_TOPIC_MISSING, ADDR_ERR_KAFKA_TOPIC_SETTINGS); 13 a TLS or password file cannot be
read or is not valid (ADDR_ERR_TLS_FILE).`;



const command: Command = {
  usage,
  async run(argv) {
    refuseSecretFlags(argv);
    const { values } = parseArgs({
      args: argv,
      options: {
        ...CONNECTION_OPTIONS,
        group: { type: 'string' },
        'input-topic': { type: 'string' },
        'results-topic': { type: 'string' },
        'ledger-topic': { type: 'string' },
        'dlq-topic': { type: 'string' },
        license: { type: 'string' },
        guid: { type: 'string' },
        db: { type: 'string' },
        index: { type: 'string' },
        op: { type: 'string' },
        'value-format': { type: 'string', default: 'avro' },
        explain: { type: 'boolean', default: false },
        workers: { type: 'string' },
        'metrics-port': { type: 'string' },
        'metrics-host': { type: 'string', default: '0.0.0.0' },
        'transactional-id-prefix': { type: 'string' },
        'registry-ids': { type: 'string' },
        'session-timeout': { type: 'string' },
        'credit-check-interval': { type: 'string' },
        concurrency: { type: 'string' },
        'kafka-client': { type: 'string' },
        'create-topics': { type: 'boolean' },
        'prefer-country': { type: 'string' },
      },
      strict: true,
    });
    const brokers = required(values, 'brokers').split(',').map((s) => s.trim()).filter(Boolean);
    const group = required(values, 'group');
    const inputTopic = required(values, 'input-topic');
    const resultsTopic = required(values, 'results-topic');
    const ledgerTopic = required(values, 'ledger-topic');
    const dlqTopic = values['dlq-topic'] ?? `${inputTopic}.dlq`;
    const op: Op | undefined = values.op === undefined ? undefined : oneOf('op', values.op, OPS);
    const preferCountry = preferCountryOption(values['prefer-country']);
    const valueFormat = oneOf('value-format', values['value-format'], ['avro', 'json']);
    const workers = values.workers === undefined ? undefined : intOption('workers', values.workers, 1, 0, 256);
    const metricsPort = intOption('metrics-port', values['metrics-port'], 9464, 0, 65535);
    const sessionTimeoutMs = intOption('session-timeout', values['session-timeout'], 30_000, 6000);
    const creditCheckIntervalMs = intOption('credit-check-interval', values['credit-check-interval'], 5000, 100);
    const partitionsConcurrently = intOption('concurrency', values.concurrency, 4, 1, 64);
    let kafkaClient: KafkaClientName;
    try {
      kafkaClient = kafkaClientFrom(values['kafka-client']);
    } catch (e) {
      throw new UsageError(`--kafka-client / ${KAFKA_CLIENT_ENV}: ${(e as Error).message}`);
    }
    let registryIds;
    try {
      registryIds = values['registry-ids'] ? parseRegistryIds(values['registry-ids']) : undefined;
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const connection = connectionOf(values);
    await checkCanListen(values['metrics-host']!, metricsPort, '--metrics-port');
    return runConsumer({
      brokers, connection, group, inputTopic, resultsTopic, ledgerTopic, dlqTopic, op,
      valueFormat: valueFormat as 'avro' | 'json', explain: values.explain === true, preferCountry, workers,
      metricsHost: values['metrics-host']!, metricsPort, transactionalIdPrefix: values['transactional-id-prefix'], registryIds,
      sessionTimeoutMs, creditCheckIntervalMs, partitionsConcurrently, kafkaClient, createTopics: values['create-topics'] === true,
      credentials: credentialsFrom(values), db: values.db,
      loadIndex: async () => (op === 'lines' ? undefined : await loadIndexForOp('search', values.index)),
      listenError: (err: unknown) => listenError(err, '--metrics-port'),
    });
  },
};

export default command;
