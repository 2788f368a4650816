/**
 * The value codec of the Kafka entrance: one front door that decodes every value format the
 * worker accepts, and an encoder for the values it writes.
 *
 * Decode (`decode(buf)`), chosen by the first bytes (framing.ts):
 * - Avro single-object (C3 01 + fingerprint): the writer schema is found by fingerprint among
 *   all versions in schemas/*.avsc;
 * - Confluent (00 + int32 id): the writer schema is found by the configured registry ids;
 * - JSON: the value must be a JSON object.
 * Avro records are read with the NEWEST version of their subject (avsc `createResolver`), so a
 * v2 reader reads v1 records, new fields taking their defaults. Failures are ValueDecodeError
 * with a code (errors.ts): never a crash, never a silent drop.
 *
 * Encode (`encode(subject, value, version?)`): with the given version of the subject, else its
 * newest; Confluent framing when a registry id is configured for that version, else single-object
 * encoding. (The worker writes search results as v1 unless --explain asks for v2: records.ts.)
 */
import type { Resolver } from 'avsc';
import { DECODE_ERRORS, ENCODE_ERRORS, ValueDecodeError, ValueEncodeError } from './errors.ts';
import {
  CONFLUENT_HEADER_LENGTH, SINGLE_OBJECT_HEADER_LENGTH, confluentHeader, detectFraming, readConfluentId,
  readFingerprint, singleObjectHeader,
} from './framing.ts';
import { loadSchemas, type SchemaSet, type SchemaVersion } from './schemas.ts';

export type ValueFormat = 'avro-single-object' | 'avro-confluent' | 'json';

export interface DecodedAvro {
  format: 'avro-single-object' | 'avro-confluent';
  subject: string;
  /** The version the record was written with. */
  writerVersion: number;
  /** The version it was read as (the newest of its subject). */
  readerVersion: number;
  value: Record<string, unknown>;
}

export interface DecodedJson {
  format: 'json';
  value: Record<string, unknown>;
}

export type DecodedValue = DecodedAvro | DecodedJson;

/** Registry ids per subject and version: `{ 'search-request': { 1: 101, 2: 102 } }`. */
export type RegistryIds = Readonly<Record<string, Readonly<Record<number, number>>>>;

export interface ValueCodecOptions {
  /** Defaults to loadSchemas() of the repository's schemas/ directory. */
  schemas?: SchemaSet;
  /** Confluent Schema Registry ids of the schema versions; when the newest version of a subject has one, encode uses the Confluent framing. */
  registryIds?: RegistryIds;
}

export interface DecodeOptions {
  /** Subjects this consumer accepts; an Avro record of any other subject is UNEXPECTED_SCHEMA. */
  accept?: readonly string[];
}

export interface ValueCodec {
  readonly schemas: SchemaSet;
  /** The registry ids it was made with (an engine thread makes the same codec from them and `schemas.dir`). */
  readonly registryIds: RegistryIds;
  decode(value: Buffer | null | undefined, options?: DecodeOptions): DecodedValue;
  /** `version`: the writer version (default: the subject's newest). */
  encode(subject: string, value: unknown, version?: number): Buffer;
  /** JSON framing of an output value (the worker's `json` value format). */
  encodeJson(value: unknown): Buffer;
}

/**
 * Parses `subject.vN=id` pairs separated by commas (a CLI flag or env value), e.g.
 * `search-request.v1=101,search-request.v2=102`.
 */
export function parseRegistryIds(spec: string): RegistryIds {
  const out: Record<string, Record<number, number>> = {};
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z0-9][a-z0-9-]*)\.v([1-9][0-9]*)=([0-9]+)$/.exec(part);
    if (!m) throw new Error(`registry id must look like subject.v1=123: '${part}'`);
    (out[m[1]!] ??= {})[Number(m[2])] = Number(m[3]);
  }
  return out;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Where encode writes a value (grown as needed; one per thread). */
let scratch = Buffer.allocUnsafeSlow(16 * 1024);

/** Writes `header` then `value` as `type` into the scratch buffer; answers the end. */
function writeAfter(header: Uint8Array, type: { encode(val: unknown, buf: Buffer, pos: number): number }, value: unknown): number {
  for (;;) {
    scratch.set(header, 0);
    const end = type.encode(value, scratch, header.length);
    if (end >= 0) return end;
    // (a negative end is the bytes missing)
    scratch = Buffer.allocUnsafeSlow(Math.max(scratch.length * 2, scratch.length - end));
  }
}

export function createValueCodec(options: ValueCodecOptions = {}): ValueCodec {
  const schemas = options.schemas ?? loadSchemas();
  const registryIds = options.registryIds ?? {};

  const byRegistryId = new Map<number, SchemaVersion>();
  for (const [subject, versions] of Object.entries(registryIds)) {
    for (const [version, id] of Object.entries(versions)) {
      const v = schemas.version(subject, Number(version));
      if (!v) throw new Error(`registry id ${id} names ${subject} v${version}, which is not in ${schemas.dir}`);
      const clash = byRegistryId.get(id);
      if (clash) throw new Error(`registry id ${id} given to both ${clash.file} and ${v.file}`);
      byRegistryId.set(id, v);
    }
  }

  // writer → (newest reader, resolver); identity when the writer is the newest version
  const readers = new Map<SchemaVersion, { reader: SchemaVersion; resolver: Resolver | undefined }>();
  function readerFor(writer: SchemaVersion): { reader: SchemaVersion; resolver: Resolver | undefined } {
    let r = readers.get(writer);
    if (!r) {
      const reader = schemas.latest(writer.subject)!;
      r = { reader, resolver: reader === writer ? undefined : reader.type.createResolver(writer.type) };
      readers.set(writer, r);
    }
    return r;
  }

  function readAvro(
    format: DecodedAvro['format'], writer: SchemaVersion, body: Buffer, accept: readonly string[] | undefined,
  ): DecodedAvro {
    if (accept && !accept.includes(writer.subject)) {
      throw new ValueDecodeError(DECODE_ERRORS.UNEXPECTED_SCHEMA,
        `record of ${writer.subject} v${writer.version} (${writer.name}); this consumer accepts ${accept.join(', ')}`);
    }
    const { reader, resolver } = readerFor(writer);
    let value: unknown;
    try {
      value = reader.type.fromBuffer(body, resolver);
    } catch (e) {
      throw new ValueDecodeError(DECODE_ERRORS.CORRUPT_AVRO,
        `Avro body does not decode as ${writer.subject} v${writer.version}: ${describe(e)}`);
    }
    if (!reader.type.isValid(value)) {
      throw new ValueDecodeError(DECODE_ERRORS.CORRUPT_AVRO,
        `Avro body of ${writer.subject} v${writer.version} decodes to an invalid value`);
    }
    return {
      format, subject: writer.subject, writerVersion: writer.version, readerVersion: reader.version,
      value: value as Record<string, unknown>,
    };
  }

  function decode(buf: Buffer | null | undefined, opts: DecodeOptions = {}): DecodedValue {
    if (!buf || buf.length === 0) throw new ValueDecodeError(DECODE_ERRORS.EMPTY, 'empty value (null or zero bytes)');
    switch (detectFraming(buf)) {
      case 'single-object': {
        if (buf.length < SINGLE_OBJECT_HEADER_LENGTH) {
          throw new ValueDecodeError(DECODE_ERRORS.TRUNCATED_HEADER,
            `Avro single-object header needs ${SINGLE_OBJECT_HEADER_LENGTH} bytes, value has ${buf.length}`);
        }
        const fp = readFingerprint(buf);
        const writer = schemas.byFingerprint.get(fp);
        if (!writer) {
          throw new ValueDecodeError(DECODE_ERRORS.UNKNOWN_FINGERPRINT,
            `Avro single-object fingerprint ${fp.toString(16).padStart(16, '0')} matches no schema in schemas/*.avsc`);
        }
        return readAvro('avro-single-object', writer, buf.subarray(SINGLE_OBJECT_HEADER_LENGTH), opts.accept);
      }
      case 'confluent': {
        if (buf.length < CONFLUENT_HEADER_LENGTH) {
          throw new ValueDecodeError(DECODE_ERRORS.TRUNCATED_HEADER,
            `Confluent header needs ${CONFLUENT_HEADER_LENGTH} bytes, value has ${buf.length}`);
        }
        const id = readConfluentId(buf);
        const writer = byRegistryId.get(id);
        if (!writer) {
          throw new ValueDecodeError(DECODE_ERRORS.UNKNOWN_SCHEMA_ID,
            `Confluent schema id ${id} is not configured (known ids: ${[...byRegistryId.keys()].join(', ') || 'none'})`);
        }
        return readAvro('avro-confluent', writer, buf.subarray(CONFLUENT_HEADER_LENGTH), opts.accept);
      }
      case 'json': {
        let value: unknown;
        try {
          const bom = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
          value = JSON.parse(buf.toString('utf8', bom));
        } catch (e) {
          throw new ValueDecodeError(DECODE_ERRORS.INVALID_JSON, `value is not valid JSON: ${describe(e)}`);
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          throw new ValueDecodeError(DECODE_ERRORS.JSON_NOT_OBJECT,
            `JSON value must be an object (one request element), got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`);
        }
        return { format: 'json', value: value as Record<string, unknown> };
      }
      default:
        throw new ValueDecodeError(DECODE_ERRORS.UNKNOWN_FORMAT,
          `value starts with ${buf.subarray(0, 4).toString('hex')}: neither Avro single-object (c301), Confluent (00) nor JSON`);
    }
  }

  /** Per schema version written: its framing header (the same bytes every time). */
  const headers = new WeakMap<object, Buffer>();

  function encode(subject: string, value: unknown, version?: number): Buffer {
    const writer = version === undefined ? schemas.latest(subject) : schemas.version(subject, version);
    if (!writer) {
      if (version !== undefined && schemas.latest(subject)) {
        throw new ValueEncodeError(ENCODE_ERRORS.UNKNOWN_SUBJECT, `no version ${version} of subject '${subject}' in ${schemas.dir}`);
      }
      throw new ValueEncodeError(ENCODE_ERRORS.UNKNOWN_SUBJECT,
        `no schema for subject '${subject}' in ${schemas.dir} (known: ${[...schemas.subjects.keys()].join(', ')})`);
    }
    let header = headers.get(writer);
    if (!header) {
      const id = registryIds[subject]?.[writer.version];
      headers.set(writer, (header = id === undefined ? singleObjectHeader(writer.fingerprint) : confluentHeader(id)));
    }
    // the header and the body written once, side by side, in a kept scratch buffer, then copied
    // out; avsc's writer checks every value it writes and throws on one that does not fit, so the
    // schema check with its readable message runs only then (a result is encoded per record)
    let end: number;
    try {
      end = writeAfter(header, writer.type, value);
    } catch (err) {
      const problems: string[] = [];
      writer.type.isValid(value, { errorHook: (path, v) => problems.push(`${path.join('.') || '(value)'}=${JSON.stringify(v)}`) });
      throw new ValueEncodeError(ENCODE_ERRORS.INVALID_VALUE,
        `value does not match ${subject} v${writer.version}: ${problems.length > 0 ? problems.slice(0, 5).join('; ') : (err as Error).message}`);
    }
    const out = Buffer.allocUnsafe(end);
    scratch.copy(out, 0, 0, end);
    return out;
  }

  return {
    schemas,
    registryIds,
    decode,
    encode,
    encodeJson: (value) => Buffer.from(JSON.stringify(value), 'utf8'),
  };
}
