import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DECODE_ERRORS, DEFAULT_SCHEMA_DIR, ENCODE_ERRORS, SUBJECTS, ValueDecodeError, createValueCodec, loadSchemas,
  parseRegistryIds, resultFromAvro, resultToAvro, type DecodedAvro,
} from '../../../../src/adapters/kafka/avro/index.ts';
import { confluentHeader, singleObjectHeader } from '../../../../src/adapters/kafka/avro/framing.ts';
import { CREDENTIAL_PARAMS, OPTION_PARAMS, OP_PARAMS } from '../../../../src/contract/params.ts';
import { LINES_RECORD_KEYS, SEARCH_RECORD_KEYS } from '../../../../src/contract/records.ts';
import type { LedgerEntry } from '../../../../src/billing/store.ts';

const schemas = loadSchemas();
const codec = createValueCodec({ schemas });

function fieldNames(subject: string, version?: number): string[] {
  const v = version === undefined ? schemas.latest(subject)! : schemas.version(subject, version)!;
  return (v.type as unknown as { fields: { name: string }[] }).fields.map((f) => f.name);
}

/** Encodes with an explicit (possibly old) version, as an older producer would. */
function encodeWithVersion(subject: string, version: number, value: unknown): Buffer {
  const v = schemas.version(subject, version)!;
  return Buffer.concat([singleObjectHeader(v.fingerprint), v.type.toBuffer(value)]);
}

function decodeError(fn: () => unknown): ValueDecodeError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ValueDecodeError);
    return e as ValueDecodeError;
  }
  throw new Error('expected a ValueDecodeError, decode succeeded');
}

const SEARCH_REQUEST = { city: 'Berlin', street: 'Unter den Linden', housenumber: '77', country: 'DEU', requestproof: '1' };
const LINES_REQUEST = {
  countrycode: 'FR', sendercountrycode: 'DE', city: 'Paris', zip: '75008', street: 'Rue du Faubourg Saint-Honoré',
  housenumber: '55', maxcharsperline: 38,
};
const SEARCH_RECORD = Object.fromEntries(SEARCH_RECORD_KEYS.map((k) => [k, ''])) as Record<string, string>;
Object.assign(SEARCH_RECORD, {
  country_iso_2: 'DE', country_iso_3: 'DEU', country: 'Germany', city: 'Berlin', zip: '10117',
  street: 'Unter den Linden', housenumber: '77', latitude: '52.5163', longitude: '13.3777', relevance: '97', matchlevel: 'housenumber',
});
const LEDGER: LedgerEntry = {
  id: 'addresses.in/2/1234', account: 'acc_01', function: 'search', credits: 27,
  requestid: '01J9Z8Q4T7R2M5N8P3K6W1X4Y7', time: '2026-11-22T05:00:00.000Z',
};

describe('schemas/*.avsc', () => {
  it('holds every subject, with v1 and v2 of both request schemas', () => {
    expect([...schemas.subjects.keys()].sort()).toEqual(Object.values(SUBJECTS).sort());
    expect(schemas.subjects.get('search-request')!.map((v) => v.version)).toEqual([1, 2]);
    expect(schemas.subjects.get('lines-request')!.map((v) => v.version)).toEqual([1, 2]);
    expect(schemas.latest('search-request')!.name).toBe('addrflow.SearchRequest');
  });

  it('request schemas carry exactly the spec parameters of their op (no credentials, no responseformat)', () => {
    const options = OPTION_PARAMS.map((p) => p.name).filter((n) => n !== 'responseformat');
    for (const op of ['search', 'lines'] as const) {
      const subject = `${op}-request`;
      const spec = [...OP_PARAMS[op].map((p) => p.name), ...options];
      expect(fieldNames(subject, 1)).toEqual(spec);
      expect(fieldNames(subject, 2)).toEqual([...spec, 'correlationid']);
      for (const c of CREDENTIAL_PARAMS) expect(fieldNames(subject)).not.toContain(c.name);
    }
  });

  it('result records carry the spec keys in spec order; the ledger entry the billing ledger fields', () => {
    const recordFields = (subject: string) =>
      ((schemas.latest(subject)!.type as unknown as { fields: { name: string; type: { types: { fields?: { name: string }[] }[] } }[] })
        .fields[0]!.type.types[1]!.fields ?? []).map((f) => f.name);
    expect(recordFields('search-result')).toEqual([...SEARCH_RECORD_KEYS]);
    expect(recordFields('lines-result')).toEqual([...LINES_RECORD_KEYS]);
    expect(fieldNames('ledger-entry')).toEqual(Object.keys(LEDGER));
  });

  it('refuses, at load time, a new version that cannot read the old ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'addrflow-schemas-'));
    try {
      cpSync(DEFAULT_SCHEMA_DIR, dir, { recursive: true });
      const v2 = JSON.parse(readFileSync(join(dir, 'search-request.v2.avsc'), 'utf8'));
      v2.fields.push({ name: 'layer', type: 'string' }); // new field WITHOUT a default
      writeFileSync(join(dir, 'search-request.v3.avsc'), JSON.stringify(v2));
      expect(() => loadSchemas(dir)).toThrow(/search-request\.v3\.avsc cannot read search-request\.v1\.avsc/);
      v2.fields[v2.fields.length - 1] = { name: 'layer', type: 'string', default: 'address' };
      writeFileSync(join(dir, 'search-request.v3.avsc'), JSON.stringify(v2));
      const v3 = loadSchemas(dir);
      expect(v3.latest('search-request')!.version).toBe(3);
      // a v3 reader reads v1 bytes: the new field takes its default
      const old = Buffer.concat([singleObjectHeader(schemas.version('search-request', 1)!.fingerprint),
        schemas.version('search-request', 1)!.type.toBuffer({ ...nulls('search-request', 1), city: 'Lyon' })]);
      const d = createValueCodec({ schemas: v3 }).decode(old) as DecodedAvro;
      expect(d).toMatchObject({ writerVersion: 1, readerVersion: 3, value: { city: 'Lyon', layer: 'address', correlationid: null } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Every field of a version set to null, so old-version encoders get a complete record. */
function nulls(subject: string, version: number): Record<string, null> {
  return Object.fromEntries(fieldNames(subject, version).map((n) => [n, null]));
}

describe('single-object encoding round trips', () => {
  it.each([
    ['search-request', SEARCH_REQUEST],
    ['lines-request', LINES_REQUEST],
    ['search-result', resultToAvro('search', { ...SEARCH_RECORD, requestid: 'r-1' })],
    ['lines-result', resultToAvro('lines', {
      addressline1: 'Élysée', addressline2: '55 Rue du Faubourg Saint-Honoré', addressline3: '75008 PARIS', addressline4: 'FRANCE',
      addressline5: '', addressline6: '', addresslinestatuscode: 0, addresslinestatusmessage: 'OK',
    })],
    ['ledger-entry', LEDGER],
  ])('%s', (subject, value) => {
    const buf = codec.encode(subject, value);
    const latest = schemas.latest(subject)!;
    expect([...buf.subarray(0, 2)]).toEqual([0xc3, 0x01]);
    expect(buf.readBigUInt64LE(2)).toBe(latest.fingerprint);
    const d = codec.decode(buf) as DecodedAvro;
    expect(d.format).toBe('avro-single-object');
    expect(d.subject).toBe(subject);
    expect(d.writerVersion).toBe(latest.version);
    // absent optional fields come back as their defaults (null)
    expect(d.value).toEqual({ ...nulls(subject, latest.version), ...value });
  });

  it('keeps non-ASCII text, the longest spec values and integer fields exact', () => {
    const long = 'ß'.repeat(255);
    const d = codec.decode(codec.encode('lines-request', { ...LINES_REQUEST, street: long, city: '東京', maxcharsperline: 80 }));
    expect(d.value).toMatchObject({ street: long, city: '東京', maxcharsperline: 80 });
  });

  it('maps spec result objects to Avro and back unchanged (record and error body)', () => {
    const ok = { ...SEARCH_RECORD, requestid: 'r-9', availablecredits: '973' };
    const back = resultFromAvro('search', codec.decode(codec.encode('search-result', resultToAvro('search', ok))).value as never);
    expect(back).toEqual(ok);
    expect(Object.keys(back)).toEqual([...SEARCH_RECORD_KEYS, 'requestid', 'availablecredits']);
    const err = { errorcode: 428, errormessage: "Mandatory parameter 'countrycode' is missing or empty." };
    expect(resultFromAvro('lines', codec.decode(codec.encode('lines-result', resultToAvro('lines', err))).value as never)).toEqual(err);
  });
});

describe('schema evolution', () => {
  it('the v2 reader reads v1 records; the new field takes its default', () => {
    const v1 = encodeWithVersion('search-request', 1, { ...nulls('search-request', 1), ...SEARCH_REQUEST });
    expect(v1.readBigUInt64LE(2)).toBe(schemas.version('search-request', 1)!.fingerprint);
    const d = codec.decode(v1) as DecodedAvro;
    expect(d).toMatchObject({ format: 'avro-single-object', subject: 'search-request', writerVersion: 1, readerVersion: 2 });
    expect(d.value).toEqual({ ...nulls('search-request', 2), ...SEARCH_REQUEST, correlationid: null });
  });

  it('v1 and v2 lines records on one topic both decode, each with its own writer schema', () => {
    const v1 = encodeWithVersion('lines-request', 1, { ...nulls('lines-request', 1), ...LINES_REQUEST });
    const v2 = codec.encode('lines-request', { ...LINES_REQUEST, correlationid: 'c-42' });
    expect(v1.length).toBeLessThan(v2.length);
    expect(codec.decode(v1).value).toMatchObject({ ...LINES_REQUEST, correlationid: null });
    expect(codec.decode(v2).value).toMatchObject({ ...LINES_REQUEST, correlationid: 'c-42' });
  });
});

describe('Confluent wire format', () => {
  const ids = parseRegistryIds('search-request.v1=101, search-request.v2=102,lines-request.v2=202');
  const confluent = createValueCodec({ schemas, registryIds: ids });

  it('parses registry ids and refuses ids of unknown versions', () => {
    expect(ids).toEqual({ 'search-request': { 1: 101, 2: 102 }, 'lines-request': { 2: 202 } });
    expect(() => parseRegistryIds('search-request=1')).toThrow(/subject\.v1=123/);
    expect(() => createValueCodec({ schemas, registryIds: { 'search-request': { 9: 5 } } })).toThrow(/search-request v9/);
  });

  it('encodes with magic 0 + int32 id when the newest version has an id, single-object otherwise', () => {
    const buf = confluent.encode('search-request', SEARCH_REQUEST);
    expect([...buf.subarray(0, 5)]).toEqual([0, 0, 0, 0, 102]);
    expect(confluent.decode(buf)).toMatchObject({ format: 'avro-confluent', subject: 'search-request', writerVersion: 2, value: SEARCH_REQUEST });
    expect([...confluent.encode('ledger-entry', LEDGER).subarray(0, 2)]).toEqual([0xc3, 0x01]);
  });

  it('reads an old version by its id with the newest reader, and single-object values on the same topic', () => {
    const v1 = schemas.version('search-request', 1)!;
    const old = Buffer.concat([confluentHeader(101), v1.type.toBuffer({ ...nulls('search-request', 1), city: 'Wien' })]);
    expect(confluent.decode(old)).toMatchObject({ format: 'avro-confluent', writerVersion: 1, readerVersion: 2, value: { city: 'Wien', correlationid: null } });
    expect(confluent.decode(codec.encode('search-request', SEARCH_REQUEST)).format).toBe('avro-single-object');
  });

  it('an id that is not configured is a coded error', () => {
    const unknown = Buffer.concat([confluentHeader(999), Buffer.from([0])]);
    expect(decodeError(() => confluent.decode(unknown))).toMatchObject({ code: DECODE_ERRORS.UNKNOWN_SCHEMA_ID });
    expect(decodeError(() => codec.decode(confluent.encode('search-request', SEARCH_REQUEST))).code).toBe(DECODE_ERRORS.UNKNOWN_SCHEMA_ID);
    expect(decodeError(() => confluent.decode(Buffer.from([0, 0, 0]))).code).toBe(DECODE_ERRORS.TRUNCATED_HEADER);
  });
});

describe('JSON values through the same front door', () => {
  it('decodes a JSON object (with BOM or leading whitespace)', () => {
    const element = { op: 'search', city: 'Berlin', street: 'Unter den Linden', housenumber: '77' };
    expect(codec.decode(Buffer.from(JSON.stringify(element)))).toEqual({ format: 'json', value: element });
    expect(codec.decode(Buffer.from(`\uFEFF \n\t${JSON.stringify(element)}`))).toEqual({ format: 'json', value: element });
    expect(codec.decode(codec.encodeJson(element)).value).toEqual(element);
  });

  it('anything else JSON is a coded error', () => {
    expect(decodeError(() => codec.decode(Buffer.from('{"city": "Berl'))).code).toBe(DECODE_ERRORS.INVALID_JSON);
    expect(decodeError(() => codec.decode(Buffer.from('[{"city":"Berlin"}]')))).toMatchObject({
      code: DECODE_ERRORS.JSON_NOT_OBJECT, reason: expect.stringContaining('an array'),
    });
    expect(decodeError(() => codec.decode(Buffer.from('42'))).code).toBe(DECODE_ERRORS.JSON_NOT_OBJECT);
    expect(decodeError(() => codec.decode(Buffer.from('null'))).code).toBe(DECODE_ERRORS.JSON_NOT_OBJECT);
  });
});

describe('undecodable values are coded errors, never crashes', () => {
  const good = codec.encode('search-request', SEARCH_REQUEST);

  it('empty and unknown first bytes', () => {
    expect(decodeError(() => codec.decode(null)).code).toBe(DECODE_ERRORS.EMPTY);
    expect(decodeError(() => codec.decode(Buffer.alloc(0))).code).toBe(DECODE_ERRORS.EMPTY);
    expect(decodeError(() => codec.decode(Buffer.from('<xml/>')))).toMatchObject({
      code: DECODE_ERRORS.UNKNOWN_FORMAT, reason: expect.stringContaining('3c786d6c'),
    });
    expect(decodeError(() => codec.decode(Buffer.from([0xc3, 0x02, 1, 2]))).code).toBe(DECODE_ERRORS.UNKNOWN_FORMAT);
  });

  it('a truncated header', () => {
    expect(decodeError(() => codec.decode(good.subarray(0, 6))).code).toBe(DECODE_ERRORS.TRUNCATED_HEADER);
  });

  it('an unknown fingerprint names the fingerprint', () => {
    const other = Buffer.from(good);
    other[9] = other[9]! ^ 0xff;
    const e = decodeError(() => codec.decode(other));
    expect(e.code).toBe(DECODE_ERRORS.UNKNOWN_FINGERPRINT);
    expect(e.reason).toContain(other.readBigUInt64LE(2).toString(16).padStart(16, '0'));
  });

  it('corrupted bodies: truncated, trailing bytes, impossible union index', () => {
    expect(decodeError(() => codec.decode(good.subarray(0, good.length - 3))).code).toBe(DECODE_ERRORS.CORRUPT_AVRO);
    expect(decodeError(() => codec.decode(Buffer.concat([good, Buffer.from([0x02, 0x41])]))).code).toBe(DECODE_ERRORS.CORRUPT_AVRO);
    const badUnion = Buffer.from(good);
    badUnion[10] = 0x08; // first field is ["null","string"]: union index 4 does not exist
    expect(decodeError(() => codec.decode(badUnion))).toMatchObject({ code: DECODE_ERRORS.CORRUPT_AVRO, reason: expect.stringContaining('search-request v2') });
  });

  it('a record of a subject the consumer does not accept', () => {
    const result = codec.encode('ledger-entry', LEDGER);
    expect(decodeError(() => codec.decode(result, { accept: ['search-request', 'lines-request'] }))).toMatchObject({
      code: DECODE_ERRORS.UNEXPECTED_SCHEMA, reason: expect.stringContaining('ledger-entry v1'),
    });
    expect(codec.decode(good, { accept: ['search-request', 'lines-request'] }).format).toBe('avro-single-object');
  });

  it('any byte string: a value valid for its reader schema, or a ValueDecodeError (property)', () => {
    const header = good.subarray(0, 10);
    const check = (buf: Buffer) => {
      try {
        const d = codec.decode(buf);
        if (d.format !== 'json') expect(schemas.latest(d.subject)!.type.isValid(d.value)).toBe(true);
      } catch (e) {
        expect(e).toBeInstanceOf(ValueDecodeError);
      }
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (body) => check(Buffer.concat([header, body]))), { numRuns: 2000 });
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => check(Buffer.from(bytes))), { numRuns: 2000 });
    fc.assert(fc.property(fc.nat(good.length - 1), fc.integer({ min: 1, max: 255 }), (at, x) => {
      const mutated = Buffer.from(good);
      mutated[at] = mutated[at]! ^ x;
      check(mutated);
    }), { numRuns: 2000 });
  });
});

describe('encode', () => {
  it('writes the framing header and avsc\'s body, whatever the value\'s size (the scratch buffer grows)', () => {
    const v = schemas.latest('search-request')!;
    for (const street of ['Unter den Linden', 'x'.repeat(40_000), 'Straße'.repeat(10_000), 'short again']) {
      const value = { ...SEARCH_REQUEST, street };
      expect(codec.encode('search-request', value).equals(Buffer.concat([singleObjectHeader(v.fingerprint), v.type.toBuffer(value)]))).toBe(true);
    }
  });
  it('gives a buffer of its own each time', () => {
    const a = codec.encode('search-request', SEARCH_REQUEST);
    const copy = Buffer.from(a);
    codec.encode('search-request', { ...SEARCH_REQUEST, city: 'München' });
    expect(a.equals(copy)).toBe(true);
  });
});

describe('encode errors', () => {
  it('are coded, with the offending field', () => {
    expect(() => codec.encode('nope', {})).toThrow(expect.objectContaining({ code: ENCODE_ERRORS.UNKNOWN_SUBJECT }));
    expect(() => codec.encode('search-request', { city: 42 })).toThrow(expect.objectContaining({
      code: ENCODE_ERRORS.INVALID_VALUE, message: expect.stringContaining('city=42'),
    }));
    expect(() => codec.encode('lines-request', { countrycode: 'FR' })).toThrow(expect.objectContaining({
      code: ENCODE_ERRORS.INVALID_VALUE, message: expect.stringContaining('sendercountrycode'),
    }));
  });
});

