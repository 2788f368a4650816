/**
 * Kafka record headers of the stream contract (docs/kafka-values.md).
 *
 * The message KEY and the correlation id travel from input to result unchanged: the key as the
 * Kafka key, the correlation id in the `correlation-id` header. Headers rather than value fields
 * because they survive a value that cannot be decoded (the DLQ record still carries them) and
 * work the same for Avro and JSON values. Producers that cannot set headers may use the v2
 * request field `correlationid`; the header wins when both are present.
 */

export const HEADERS = Object.freeze({
  correlationId: 'correlation-id',
  /** On DLQ records: the ValueDecodeError code (e.g. ADDR_DECODE_UNKNOWN_FINGERPRINT) and its reason. */
  errorCode: 'addrflow-error-code',
  errorReason: 'addrflow-error-reason',
  /** On DLQ records: where the record came from. */
  sourceTopic: 'addrflow-source-topic',
  sourcePartition: 'addrflow-source-partition',
  sourceOffset: 'addrflow-source-offset',
  /** On result records: the operation ('search' or 'lines'), so JSON results can be told apart. */
  op: 'addrflow-op',
} as const);

/** kafkajs's header map (IHeaders). */
export type Headers = Record<string, Buffer | string | (Buffer | string)[] | undefined>;

/** The first value of a header as a string, or undefined. */
export function headerString(headers: Headers | undefined, name: string): string | undefined {
  const v = headers?.[name];
  const first = Array.isArray(v) ? v[0] : v;
  return first === undefined ? undefined : first.toString();
}

/** The correlation id of an input record: the header, else the v2 `correlationid` field. */
export function correlationIdOf(headers: Headers | undefined, value: Record<string, unknown> | undefined): string | undefined {
  const h = headerString(headers, HEADERS.correlationId);
  if (h !== undefined) return h;
  const f = value?.correlationid;
  return typeof f === 'string' ? f : undefined;
}
