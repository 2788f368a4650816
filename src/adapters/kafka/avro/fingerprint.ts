/**
 * Avro "Parsing Canonical Form" and its CRC-64-AVRO (Rabin) fingerprint, as the Avro
 * specification defines them ("Parsing Canonical Form for Schemas", "Schema Fingerprints").
 * The single-object encoding header carries this fingerprint, so a reader finds the writer's
 * schema without a registry. Checked against the spec's published test vectors
 * (test/adapters/kafka/avro/fingerprint.test.ts).
 *
 * avsc's own `Type#fingerprint()` is an MD5 of its JSON export, which is not this.
 */

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const NAMED = new Set(['record', 'error', 'enum', 'fixed']);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function fullName(name: string, namespace: string | undefined): string {
  return name.includes('.') || !namespace ? name : `${namespace}.${name}`;
}

function namespaceOf(full: string): string | undefined {
  const i = full.lastIndexOf('.');
  return i < 0 ? undefined : full.slice(0, i);
}

function canonical(schema: Json, namespace: string | undefined): string {
  if (typeof schema === 'string') {
    // [PRIMITIVES] a primitive, or [FULLNAMES] a reference to a named type
    return JSON.stringify(PRIMITIVES.has(schema) ? schema : fullName(schema, namespace));
  }
  if (Array.isArray(schema)) return `[${schema.map((s) => canonical(s, namespace)).join(',')}]`;
  if (schema === null || typeof schema !== 'object') throw new Error(`not an Avro schema: ${JSON.stringify(schema)}`);
  const type = schema.type;
  if (typeof type !== 'string') return canonical(type ?? null, namespace); // {"type": <schema>}
  if (PRIMITIVES.has(type)) return JSON.stringify(type); // {"type":"int", "logicalType": …} → "int"
  if (NAMED.has(type)) {
    if (typeof schema.name !== 'string') throw new Error(`named type without a name: ${JSON.stringify(schema)}`);
    const ns = typeof schema.namespace === 'string' && schema.namespace !== '' ? schema.namespace : namespace;
    const name = fullName(schema.name, ns);
    // [ORDER] name, type, fields, symbols, items, values, size; [STRIP] everything else
    let out = `{"name":${JSON.stringify(name)},"type":${JSON.stringify(type)}`;
    if (type === 'record' || type === 'error') {
      const inner = namespaceOf(name);
      const fields = (schema.fields as Json[] | undefined) ?? [];
      out += `,"fields":[${fields.map((f) => {
        const field = f as { [k: string]: Json };
        return `{"name":${JSON.stringify(field.name)},"type":${canonical(field.type ?? null, inner)}}`;
      }).join(',')}]`;
    } else if (type === 'enum') {
      out += `,"symbols":${JSON.stringify(schema.symbols)}`;
    } else {
      out += `,"size":${JSON.stringify(Number(schema.size))}`; // [INTEGERS]
    }
    return `${out}}`;
  }
  if (type === 'array') return `{"type":"array","items":${canonical(schema.items ?? null, namespace)}}`;
  if (type === 'map') return `{"type":"map","values":${canonical(schema.values ?? null, namespace)}}`;
  // a reference written as {"type": "addrflow.Name"}
  return JSON.stringify(fullName(type, namespace));
}

/** The Parsing Canonical Form of a schema given as parsed JSON. */
export function parsingCanonicalForm(schema: unknown): string {
  return canonical(schema as Json, undefined);
}

const EMPTY = 0xc15d213aa4d7a795n;
const MASK = 0xffffffffffffffffn;
const TABLE: bigint[] = Array.from({ length: 256 }, (_, i) => {
  let fp = BigInt(i);
  for (let j = 0; j < 8; j++) fp = (fp >> 1n) ^ (EMPTY & -(fp & 1n));
  return fp & MASK;
});

/** CRC-64-AVRO of a string's UTF-8 bytes, as an unsigned 64-bit bigint. */
export function rabinFingerprint(text: string): bigint {
  let fp = EMPTY;
  for (const b of Buffer.from(text, 'utf8')) fp = (fp >> 8n) ^ TABLE[Number((fp ^ BigInt(b)) & 0xffn)]!;
  return fp & MASK;
}

/** The schema's 64-bit fingerprint (unsigned; Java prints the same bits as a signed long). */
export function schemaFingerprint(schema: unknown): bigint {
  return rabinFingerprint(parsingCanonicalForm(schema));
}
