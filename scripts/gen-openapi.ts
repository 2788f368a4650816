/**
 * Writes docs/openapi.yaml (OpenAPI 3.1) from the contract tables in src/contract, so that the
 * document cannot drift from the code: test/docs/openapi.test.ts regenerates it and compares.
 *   node scripts/gen-openapi.ts            (writes docs/openapi.yaml)
 *   node scripts/gen-openapi.ts --check    (exit 1 if the file is out of date)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { ERRORS } from '../src/contract/errors.ts';
import { CREDENTIAL_PARAMS, EXTENSION_PARAMS, MAX_BATCH_ELEMENTS, OP_PARAMS, OP_PATHS, OPTION_PARAMS, PRICES, type Op, type ParamDef } from '../src/contract/params.ts';
import { EXPLAIN_KEY } from '../src/contract/explain.ts';
import { PREFER_COUNTRY } from '../src/contract/validate.ts';
import { DEDUCTIONS } from '../src/engine/lookup/score/deductions.ts';
import { AVAILABLE_CREDITS_KEY, LINES_RECORD_KEYS, LINES_STATUS, REQUEST_ID_KEY, SEARCH_RECORD_KEYS } from '../src/contract/records.ts';

const OUT = fileURLToPath(new URL('../docs/openapi.yaml', import.meta.url));

function paramSchema(d: ParamDef): Record<string, unknown> {
  if (d.type === 'integer') return { type: 'integer', minimum: d.min, maximum: d.max };
  const s: Record<string, unknown> = { type: 'string', minLength: d.min, maxLength: d.max };
  if (d.allowed) s.enum = [...d.allowed];
  return s;
}

function formSchema(op: Op): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const d of [...CREDENTIAL_PARAMS, ...OPTION_PARAMS, ...OP_PARAMS[op]]) props[d.name] = paramSchema(d);
  for (const d of EXTENSION_PARAMS[op]) props[d.name] = { ...paramSchema(d), 'x-addrflow-extension': true, description: EXTENSION_DOCS[d.name] };
  if (op === 'search') props[PREFER_COUNTRY] = { type: 'string', minLength: 2, maxLength: 2, 'x-addrflow-extension': true, description: PREFER_COUNTRY_DOC };
  props.batch = {
    type: 'string',
    description: `Batch mode: a JSON array (serialised as a string) of 1 to ${MAX_BATCH_ELEMENTS} objects, each holding the ` +
      'parameters of one record (all parameters above except license and guid). When present, the record ' +
      'parameters at top level are ignored; top-level requestproof, returnavailablecredits and responseformat ' +
      'act as defaults for every element, and a top-level responseformat decides the body format.',
  };
  const required = [...CREDENTIAL_PARAMS, ...OP_PARAMS[op]].filter((d) => d.required).map((d) => d.name);
  return { type: 'object', required, properties: props };
}

/** What each extension parameter does (EXTENSION_PARAMS: not in the interface specification). */
const EXTENSION_DOCS: Record<string, string> = {
  explain: 'Not in the interface specification (an addrflow extension). explain=1: the record gets a last key `explain` ' +
    '(XML: an `<explain>` element) saying what became of each input part (matched, corrected, inferred, ignored) and each ' +
    'relevance deduction with its points (docs/accuracy.md). Also accepted in the query string (`?explain=1`); top-level in ' +
    'batch mode it is every element\'s default. Without it the record is the specification\'s keys only.',
};

/** `prefer_country` is checked by its own rule (contract/validate.ts checkPreferCountry: a destination's code). */
const PREFER_COUNTRY_DOC = 'Not in the interface specification (an addrflow extension). A soft default country: the ISO 3166-1 ' +
  'alpha-2 code of a destination (e.g. DE). For a record that gives no `country`, it decides among the countries the record ' +
  'leaves open (a postcode or a place name several countries have) and excludes none, unlike `country`, which is a hard ' +
  'filter. An answer it decided loses 5 relevance points (COUNTRY_PREFERRED). Top-level in batch mode it is every element\'s default.';

const errorRef = { $ref: '#/components/schemas/Error' };
function errResponse(status: number, extra = ''): Record<string, unknown> {
  const def = Object.values(ERRORS).find((e) => e.status === status)!;
  return {
    description: def.message + extra,
    headers: { 'Access-Control-Allow-Origin': { $ref: '#/components/headers/ACAO' } },
    content: {
      'application/json': { schema: errorRef },
      'application/xml': { schema: { $ref: '#/components/schemas/XmlError' } },
    },
  };
}

function operation(op: Op): Record<string, unknown> {
  const record = op === 'search' ? 'SearchRecord' : 'LinesRecord';
  const summary = op === 'search' ? 'Address lookup' : 'Recipient block creation';
  return {
    post: {
      operationId: op,
      summary,
      description: `${PRICES[op]} credits per ${op === 'lines' ? 'record whose addresslinestatuscode is 0 or 1' : 'processed record (also when nothing matched)'}. ` +
        'Single mode: the record parameters as form fields. Batch mode: the `batch` field.',
      parameters: [{
        name: 'Idempotency-Key', in: 'header', required: false,
        description: 'Safe retries: a repeat of this key by the same account within 24 h, with the same request, gets the first 200 answer again ' +
          '(header Idempotent-Replayed: true) and is not charged again; the same key with another request is 409. Error answers are not kept. See docs/http.md.',
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      }],
      requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: formSchema(op), encoding: {} } } },
      responses: {
        200: {
          description: 'Single mode: one record. Batch mode: one result per element, in order; an invalid element holds an error object (errorcode 412 or 428) in its slot.',
          headers: {
            'Access-Control-Allow-Origin': { $ref: '#/components/headers/ACAO' },
            'Idempotent-Replayed': { description: 'Present (true) when the answer is the stored first answer of the request\'s Idempotency-Key.', schema: { type: 'string', const: 'true' } },
          },
          content: {
            'application/json': { schema: { oneOf: [{ $ref: `#/components/schemas/${record}` }, { type: 'array', maxItems: MAX_BATCH_ELEMENTS, items: { oneOf: [{ $ref: `#/components/schemas/${record}` }, errorRef] } }] } },
            'application/xml': { schema: { type: 'string', description: 'responseformat=xml: `<response>` with one child per key in the order of the JSON record; a batch is `<responses>` with one `<response>` per element.' } },
          },
        },
        401: errResponse(401, ' Missing or empty credentials, or credentials matching no active account.'),
        402: errResponse(402, ' Price × number of valid records exceeds the balance; nothing was run or charged.'),
        403: errResponse(403),
        409: errResponse(409, ' (not in the interface specification; only with an Idempotency-Key)'),
        405: { ...errResponse(405), headers: { 'Access-Control-Allow-Origin': { $ref: '#/components/headers/ACAO' }, Allow: { schema: { type: 'string', const: 'POST' } } } },
        412: errResponse(412, ' Also: a malformed, non-array or over-long batch, disagreeing element response formats, or a body that is not UTF-8.'),
        413: errResponse(413, ' (not in the interface specification; HTTP-level)'),
        415: errResponse(415, ' (not in the interface specification; HTTP-level)'),
        428: errResponse(428, ' Also: batch missing or empty.'),
        500: { description: ERRORS.INTERNAL.message + ' No body. An engine failure in single mode is a 500 (in a batch: an error element); never charged.', headers: { 'Access-Control-Allow-Origin': { $ref: '#/components/headers/ACAO' } } },
        503: errResponse(503, ` Also (${ERRORS.STORE_UNAVAILABLE.code}, message '${ERRORS.STORE_UNAVAILABLE.message}') when the billing store cannot be reached within 5 s; nothing is charged, retry later (docs/http.md, "Outages").`),
      },
    },
  };
}

function recordSchema(keys: readonly string[], intKeys: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const k of keys) props[k] = intKeys.includes(k) ? { type: 'integer' } : { type: 'string' };
  Object.assign(props, extra);
  props[REQUEST_ID_KEY] = { type: 'string', format: 'uuid', description: 'Only with requestproof=1: the time-ordered request id (UUIDv7), also written into the credit ledger.' };
  props[AVAILABLE_CREDITS_KEY] = { type: 'string', description: 'Only with returnavailablecredits=1: the balance after this request was charged; "-1" = unlimited.' };
  return { type: 'object', required: [...keys], properties: props };
}

export function buildOpenApi(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'addrflow: address lookup and recipient block service',
      version: '0.1.0',
      description: 'Generated from src/contract by scripts/gen-openapi.ts. Every answer carries `Access-Control-Allow-Origin: *`. ' +
        'Other methods on the two paths answer 405 (Allow: POST); other paths 404. Behaviour the specification leaves open is described in docs/http.md.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: 'http://127.0.0.1:8080' }],
    paths: { [OP_PATHS.search]: operation('search'), [OP_PATHS.lines]: operation('lines') },
    components: {
      headers: { ACAO: { schema: { type: 'string', const: '*' } } },
      schemas: {
        Error: { type: 'object', required: ['errorcode', 'errormessage'], properties: { errorcode: { type: 'integer' }, errormessage: { type: 'string' } } },
        XmlError: { type: 'string', description: '<error><errorcode>…</errorcode><errormessage>…</errormessage></error>' },
        SearchRecord: recordSchema(SEARCH_RECORD_KEYS, [], {
          matchlevel: { type: 'string', enum: ['housenumber', 'street', 'general', ''] },
          [EXPLAIN_KEY]: { $ref: '#/components/schemas/Explanation' },
        }),
        Explanation: {
          type: 'object', 'x-addrflow-extension': true, required: ['parts', 'deductions'],
          description: 'Only with explain=1 (not in the interface specification): the last key of a search record.',
          properties: {
            parts: { type: 'array', items: { type: 'object', required: ['input', 'status', 'field', 'became', 'why'], properties: {
              input: { type: 'string', description: 'The input part as typed; empty for an inferred part.' },
              status: { type: 'string', enum: ['matched', 'corrected', 'inferred', 'ignored'] },
              field: { type: 'string', description: 'The record key it became; empty when ignored.' },
              became: { type: 'string' },
              why: { type: 'string', description: 'typo, abbreviation, diacritics, transliteration, … (docs/accuracy.md)' },
            } } },
            deductions: { type: 'array', items: { type: 'object', required: ['code', 'points', 'why'], properties: {
              code: { type: 'string', enum: DEDUCTIONS.map((d) => d.code) },
              points: { type: 'number', description: 'Relevance points taken off (one decimal).' },
              why: { type: 'string' },
            } } },
          },
        },
        LinesRecord: recordSchema(LINES_RECORD_KEYS, ['addresslinestatuscode'], {
          addresslinestatuscode: { type: 'integer', enum: Object.keys(LINES_STATUS).map(Number), description: Object.entries(LINES_STATUS).map(([k, v]) => `${k}: ${v}`).join('; ') },
        }),
      },
    },
  };
}

export function renderOpenApi(): string {
  return '# Generated by scripts/gen-openapi.ts from src/contract. Do not edit by hand.\n' + stringify(buildOpenApi(), { lineWidth: 0 });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = renderOpenApi();
  if (process.argv.includes('--check')) {
    let cur = '';
    try { cur = readFileSync(OUT, 'utf8'); } catch { /* missing */ }
    if (cur !== text) {
      console.error('docs/openapi.yaml is out of date: run node scripts/gen-openapi.ts');
      process.exit(1);
    }
  } else {
    writeFileSync(OUT, text);
    console.log(`wrote ${OUT}`);
  }
}
