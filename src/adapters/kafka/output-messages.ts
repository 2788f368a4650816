/**
 * The three kinds of record the stream worker writes, in one transaction per batch:
 * - result (results topic): the spec's result object for one decodable input record; key and
 *   `correlation-id` header carried over, `addrflow-op` header names the op;
 * - ledger entry (ledger topic): one per ledger row the billing store wrote for the batch, key =
 *   its ledger id `<account>/<op>/kafka:<topic id>:<group>/<partition>/<offset>`;
 * - DLQ record: the undecodable input unchanged (key, value, headers) plus the reason headers.
 * Values are Avro single-object (Confluent framing with registry ids) or JSON (`--value-format`).
 */
import { OPS, type Op } from '../../contract/params.ts';
import { AVAILABLE_CREDITS_KEY, RECORD_KEYS, REQUEST_ID_KEY } from '../../contract/records.ts';
import { EXPLAIN_KEY } from '../../contract/explain.ts';
import type { Outcome } from '../../engine/process.ts';
import type { LedgerEntry } from '../../billing/store.ts';
import type { ValueCodec } from './avro/codec.ts';
import { RESULT_SUBJECT, resultToAvro, resultVersion } from './avro/records.ts';
import { SUBJECTS } from './avro/schemas.ts';
import { HEADERS, type Headers } from './headers.ts';
import type { InputMessage } from './stream-record.ts';

export type OutputFormat = 'avro' | 'json';

export interface OutMessage {
  key: Buffer | string | null;
  value: Buffer | null;
  headers?: Headers;
}

/** The spec's result object of one outcome: record keys in spec order plus the asked-for extras, or the error body. */
export function resultObject(op: Op, o: Outcome, requestid: string, balance: number | undefined): Record<string, unknown> {
  if (!o.ok) return { errorcode: o.error.errorcode, errormessage: o.error.errormessage };
  const src = o.record as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of RECORD_KEYS[op]) out[k] = src[k] ?? '';
  if (o.options.requestproof) out[REQUEST_ID_KEY] = requestid;
  if (o.options.returnavailablecredits && balance !== undefined) out[AVAILABLE_CREDITS_KEY] = String(balance);
  if (src[EXPLAIN_KEY] !== undefined) out[EXPLAIN_KEY] = src[EXPLAIN_KEY];
  return out;
}

/** A result's value (written on the main thread, or in an engine thread: results-task.ts). */
export function resultValue(codec: ValueCodec, format: OutputFormat, op: Op, result: Record<string, unknown>): Buffer {
  return format === 'json' ? codec.encodeJson(result) : codec.encode(RESULT_SUBJECT[op], resultToAvro(op, result), resultVersion(op, result));
}

/** The `addrflow-op` header's value per op, encoded once (a result message per record carries it). */
const OP_HEADER = Object.fromEntries(OPS.map((op) => [op, Buffer.from(op)])) as Record<Op, Buffer>;

/** A result message with its value already encoded. */
export function resultMessageOf(op: Op, input: InputMessage, correlationId: string | undefined, value: Buffer): OutMessage {
  const headers: Headers = { [HEADERS.op]: OP_HEADER[op] };
  if (correlationId !== undefined) headers[HEADERS.correlationId] = correlationId;
  return { key: input.key, value, headers };
}

export function resultMessage(
  codec: ValueCodec, format: OutputFormat, op: Op, input: InputMessage, correlationId: string | undefined,
  result: Record<string, unknown>,
): OutMessage {
  return resultMessageOf(op, input, correlationId, resultValue(codec, format, op, result));
}

export function ledgerMessage(codec: ValueCodec, format: OutputFormat, entry: LedgerEntry): OutMessage {
  const value = format === 'json' ? codec.encodeJson(entry) : codec.encode(SUBJECTS.ledgerEntry, entry);
  return { key: entry.id, value };
}

export function dlqMessage(
  input: InputMessage, source: { topic: string; partition: number }, code: string, reason: string,
): OutMessage {
  const headers: Headers = { ...(input.headers ?? {}) };
  headers[HEADERS.errorCode] = code;
  headers[HEADERS.errorReason] = reason;
  headers[HEADERS.sourceTopic] = source.topic;
  headers[HEADERS.sourcePartition] = String(source.partition);
  headers[HEADERS.sourceOffset] = input.offset;
  return { key: input.key, value: input.value, headers };
}
