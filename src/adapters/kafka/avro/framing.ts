/**
 * The two Avro framings a Kafka value may carry, told apart by the first bytes:
 * - Avro single-object encoding (Avro spec): C3 01, then the writer schema's CRC-64-AVRO
 *   fingerprint as 8 bytes little-endian, then the Avro binary body. Needs no registry.
 * - Confluent wire format: magic byte 00, then the registry's schema id as int32 big-endian,
 *   then the Avro binary body. Used when registry ids are configured.
 * A JSON object value starts with `{` (after optional whitespace / BOM), which is neither.
 */

export const SINGLE_OBJECT_MAGIC = Object.freeze([0xc3, 0x01] as const);
export const SINGLE_OBJECT_HEADER_LENGTH = 10;
export const CONFLUENT_MAGIC = 0x00;
export const CONFLUENT_HEADER_LENGTH = 5;

export type Framing = 'single-object' | 'confluent' | 'json' | 'unknown';

/** Which framing the value's first bytes announce (a header may still be truncated). */
export function detectFraming(buf: Uint8Array): Framing {
  const b0 = buf[0];
  if (b0 === SINGLE_OBJECT_MAGIC[0]) return buf.length < 2 || buf[1] === SINGLE_OBJECT_MAGIC[1] ? 'single-object' : 'unknown';
  if (b0 === CONFLUENT_MAGIC) return 'confluent';
  // JSON: optional UTF-8 BOM, whitespace, then any JSON value start (non-objects get a precise error later)
  let i = 0;
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3;
  while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x09 || buf[i] === 0x0a || buf[i] === 0x0d)) i++;
  const c = buf[i];
  if (c === undefined) return 'unknown';
  if (c === 0x7b || c === 0x5b || c === 0x22 || c === 0x2d || (c >= 0x30 && c <= 0x39)
    || c === 0x74 || c === 0x66 || c === 0x6e) return 'json'; // { [ " - 0-9 t f n
  return 'unknown';
}

export function singleObjectHeader(fingerprint: bigint): Buffer {
  const h = Buffer.allocUnsafe(SINGLE_OBJECT_HEADER_LENGTH);
  h[0] = SINGLE_OBJECT_MAGIC[0];
  h[1] = SINGLE_OBJECT_MAGIC[1];
  h.writeBigUInt64LE(fingerprint, 2);
  return h;
}

export function confluentHeader(schemaId: number): Buffer {
  const h = Buffer.allocUnsafe(CONFLUENT_HEADER_LENGTH);
  h[0] = CONFLUENT_MAGIC;
  h.writeInt32BE(schemaId, 1);
  return h;
}

/** The fingerprint of a single-object value (caller checked the length). */
export function readFingerprint(buf: Buffer): bigint {
  return buf.readBigUInt64LE(2);
}

export function readConfluentId(buf: Buffer): number {
  return buf.readInt32BE(1);
}
