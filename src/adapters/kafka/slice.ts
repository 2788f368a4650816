/**
 * One slice of one input partition, processed and committed in one Kafka transaction — the
 * client-independent part of the stream worker (worker.ts runs it on either client port):
 *  the engine threads decode each message (undecodable → DLQ record with the reason), validate
 *  each element once (412/428 error results, free), run the valid ones and encode the results
 *  (results-task.ts: the main thread sends the raw values; the worker may have started this
 *  while the previous slice was in its Kafka half, engine-ahead.ts); then the prefix the balance
 *  covers is held and settled in one store step (`Meter.holdAndSettle`, src/billing/meter.ts;
 *  record key `<partition>/<offset>`: ledger rows + debit, idempotent on the ledger id) BEFORE
 *  the Kafka commit — only that prefix is committed, the rest waits for credits; then one
 *  transaction: results, a ledger-topic entry per ledger row settle wrote, DLQ records, the
 *  group's offset, commit.
 */
import { ERRORS, type ErrorBody } from '../../contract/errors.ts';
import { OPS, type Op } from '../../contract/params.ts';
import type { ElementDefaults } from '../../contract/validate.ts';
import type { Outcome } from '../../engine/process.ts';
import type { EnginePool } from '../../pool/engine-pool.ts';
import type { Logger } from '../../log.ts';
import type { ValueCodec } from './avro/codec.ts';
import { ledgerMessages } from './ledger-messages.ts';
import { dlqMessage, resultMessage, resultMessageOf, resultObject, type OutMessage, type OutputFormat } from './output-messages.ts';
import { correlationIdOf } from './headers.ts';
import { RECORD, runResults, type SliceResults } from './results-task.ts';
import type { InputMessage } from './stream-record.ts';
import type { Meter } from '../../billing/meter.ts';
import type { WorkerMetrics } from './worker-metrics.ts';

/** What a slice needs of the worker's options. */
export interface SliceOptions {
  inputTopic: string;
  resultsTopic: string;
  ledgerTopic: string;
  dlqTopic: string;
  op?: Op;
  valueFormat: OutputFormat;
  /** consume --explain: every search result carries its explanation (search-result v2); else none does. */
  explain?: boolean;
  pool: EnginePool;
  meter: Meter;
  codec: ValueCodec;
  metrics: WorkerMetrics;
  /** Values for records that do not give their own (`consume --prefer-country`). */
  defaults?: ElementDefaults;
  /** Where a slice's time goes, phase by phase (the benchmark's profile, bench/kafka.bench.ts); off when absent. */
  phases?: SlicePhases;
}

/** Adds up wall-clock milliseconds per phase of runSlice (phases of slices in flight overlap). */
export interface SlicePhases {
  add(phase: string, ms: number): void;
  /** A slice of `n` records committed. */
  committed(n: number): void;
}

/** One open Kafka transaction of the partition's producer, whatever the client. */
export interface SliceTransaction {
  /** Produces the messages of every part, each to its topic, in one produce request of the transaction (acks = all). */
  send(parts: readonly TopicMessages[]): Promise<void>;
  /** Adds the consumer group's offset of `partition` (the next offset to read) to the transaction. */
  commitOffset(partition: number, next: string): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** The balance covers not even the first chargeable record of the slice. */
export class NoCredits extends Error {}

/** Records per transaction (a fetch can hold thousands). */
export const DEFAULT_MAX_BATCH_RECORDS = 2000;
/** One produce request's bytes at most: a partition's record batch must stay under the broker's message.max.bytes. */
export const MAX_SEND_BYTES = 512 * 1024;

/** Messages for one topic. */
export interface TopicMessages {
  topic: string;
  messages: OutMessage[];
}

/**
 * The messages of `parts` (in order) cut into produce requests of at most `maxBytes` each, the
 * topics together: a slice's results and ledger entries share a request (one AddPartitionsToTxn
 * and one Produce round trip) instead of one request per topic. Every partition's record batch in
 * a request is then under `maxBytes` too.
 */
export function* requestsBySize(parts: readonly TopicMessages[], maxBytes: number): Generator<TopicMessages[]> {
  let request: TopicMessages[] = [];
  let bytes = 0;
  for (const { topic, messages } of parts) {
    let part: TopicMessages | undefined;
    for (const m of messages) {
      const size = (m.value?.length ?? 0) + (m.key?.length ?? 0) + 64;
      if (bytes > 0 && bytes + size > maxBytes) {
        yield request;
        request = [];
        part = undefined;
        bytes = 0;
      }
      if (!part) request.push((part = { topic, messages: [] }));
      part.messages.push(m);
      bytes += size;
    }
  }
  if (bytes > 0) yield request;
}

export const FENCED = new Set(['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED', 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED', 'INVALID_PRODUCER_ID_MAPPING']);

const INTERNAL_STATUS = ERRORS.INTERNAL.status;

/**
 * A slice's records decoded, validated, run and encoded in the engine threads (results-task.ts).
 * The engine is pure, so running it before the hold shows nothing to anyone — and it may run
 * before the slice's turn (the worker starts the next slice's while this one is in its Kafka
 * half): only the valid records the balance covers are held, committed and charged.
 */
export function sliceResults(o: SliceOptions, messages: readonly InputMessage[]): Promise<SliceResults> {
  return runResults(o.pool, messages, {
    ...(o.op ? { op: o.op } : {}), ...(o.defaults ? { defaults: o.defaults } : {}), explain: o.explain === true,
    refused: OPS.flatMap((op): Array<[Op, ErrorBody]> => { const e = o.meter.refusal(op); return e ? [[op, e]] : []; }),
    format: o.valueFormat, requestid: o.meter.requestid, codec: o.codec,
  });
}

/**
 * Runs `messages` (one partition, offset order) in transaction `tx` and commits it, with the
 * `engine`'s results of exactly these messages (default: computed now) — `committedFrom` is the
 * group's committed offset of the partition before this transaction, when the worker knows it
 * (default: the first message's offset); answers how
 * many it processed and committed (the prefix the balance covers). Throws NoCredits when the
 * balance covers none (the transaction is aborted); any other error leaves `tx` for the caller
 * to abort.
 */
export async function runSlice(
o: SliceOptions, log: Logger, tx: SliceTransaction, partition: number, messages: InputMessage[], highWatermark: string,
engine: Promise<SliceResults> = sliceResults(o, messages), committedFrom?: bigint,
): Promise<number> {
  const topic = o.inputTopic;
  let since = performance.now();
  const phase = (name: string): void => {
    if (!o.phases) return;
    const now = performance.now();
    o.phases.add(name, now - since);
    since = now;
  };
  const r = await engine;
  phase('pool: decode + validate + engine + encode results');
  // billing first, in one store step: the prefix the balance covers is held and settled (ledger
  // rows + debit, idempotent on the ledger id) in one transaction; a crash after this point
  // replays the slice without charging twice. Record key of a ledger id: `<partition>/<offset>`
  // (src/billing/ledger-id.ts)
  const chargeable = r.chargeable;
  const settled = await o.meter.holdAndSettle(messages.map((m, i) => ({
    op: r.kinds[i] === RECORD.valid ? r.ops[i] : undefined, record: `${partition}/${m.offset}`,
  })), chargeable, { exportLater: true });
  phase('billing: hold + settle');
  const n = settled.covered;
  if (n === 0) {
    await tx.abort();
    throw new NoCredits();
  }
  let wantsBalance = false;
  for (let i = 0; i < n && !wantsBalance; i++) {
    const k = r.kept[i];
    wantsBalance = k?.ok === true && k.options.returnavailablecredits === true;
  }
  const balance = wantsBalance ? settled.balance ?? await o.meter.balance() : undefined;

  const results: OutMessage[] = [];
  const dlq: OutMessage[] = [];
  const processed = new Map<Op, number>();
  const charged = new Map<Op, number>();
  for (let i = 0; i < n; i++) {
    const m = messages[i]!;
    const op = r.ops[i];
    if (op === undefined) {
      const u = r.undecodable.get(i)!;
      dlq.push(dlqMessage(m, { topic, partition }, u.code, u.reason));
      continue;
    }
    processed.set(op, (processed.get(op) ?? 0) + 1);
    const correlationId = correlationIdOf(m.headers, undefined) ?? r.correlationIds.get(i);
    const value = r.values[i];
    if (value) {
      results.push(resultMessageOf(op, m, correlationId, value));
      if (settled.written[i]) charged.set(op, (charged.get(op) ?? 0) + 1);
      continue;
    }
    const out: Outcome = r.kept[i] ?? { ok: false, error: { errorcode: INTERNAL_STATUS, errormessage: 'no outcome from the engine' } };
    if (!out.ok && out.error.errorcode === INTERNAL_STATUS) {
      // an engine failure: a DLQ record, logged with the request id, never charged
      log.error({ requestid: o.meter.requestid, partition, offset: m.offset, error: out.error.errormessage }, 'engine failure: record sent to the DLQ, not charged');
      dlq.push(dlqMessage(m, { topic, partition }, ERRORS.INTERNAL.code, out.error.errormessage));
      continue;
    }
    results.push(resultMessage(o.codec, o.valueFormat, op, m, correlationId, resultObject(op, out, o.meter.requestid, balance)));
    if (settled.written[i]) charged.set(op, (charged.get(op) ?? 0) + 1);
  }
  // a ledger-topic entry for exactly the ledger rows settle wrote: now, or in an attempt at
  // these records whose transaction never committed (a crash between settle and commit)
  const mirrored = [...settled.entries, ...settled.unexported];
  const ledger = ledgerMessages(o.codec, o.valueFormat, mirrored);
  phase('messages + ledger entries (main thread)');
  // produce requests of at most MAX_SEND_BYTES, the three topics together: a partition's record
  // batch must stay under the broker's message.max.bytes (1 MiB by default)
  const parts = [{ topic: o.resultsTopic, messages: results }, { topic: o.ledgerTopic, messages: ledger }, { topic: o.dlqTopic, messages: dlq }];
  for (const request of requestsBySize(parts, MAX_SEND_BYTES)) await tx.send(request);
  phase('produce (send)');
  const nextOffset = BigInt(messages[n - 1]!.offset) + 1n;
  await tx.commitOffset(partition, nextOffset.toString());
  phase('offsets into the transaction');
  await tx.commit();
  phase('commit');
  // the records this commit moved the group's offset over (from the offset it was at) have their
  // mirror: one range row in the store, not an update per ledger row. Best effort, not waited for
  // (the next slice need not wait on it; stop does): a range left unmarked is mirrored again only
  // if its records are read again by this group, which after this commit takes an offset reset
  const from = committedFrom ?? BigInt(messages[0]!.offset);
  o.meter.markMirroredLater(String(partition), from, nextOffset, (err) => log.warn({ err }, 'could not mark ledger rows exported'));
  o.phases?.committed(n);
  const m = o.metrics;
  for (const [op, c] of processed) m.records.inc({ op }, c);
  for (const [op, c] of charged) m.charged.inc({ op }, c);
  if (dlq.length) m.dlq.inc(dlq.length);
  m.batches.inc();
  m.noteProcessed(n);
  m.lag.set({ topic, partition: String(partition) }, Math.max(0, Number(BigInt(highWatermark) - nextOffset)));
  return n;
}
