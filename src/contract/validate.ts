/**
 * The one validation path shared by the HTTP, file and Kafka entrances.
 * It checks an element against the spec's parameter table and answers either a typed request
 * or the spec's error body (428 for a missing mandatory value, 412 for anything else invalid).
 */
import { errorBody, type ErrorBody } from './errors.ts';
import { CREDENTIAL_PARAMS, EXTENSION_PARAMS, OP_PARAMS, OPTION_PARAMS, type Op, type ParamDef } from './params.ts';

import { isSupportedDestination } from '../engine/lines/iso3166.ts';
import type { ElementOptions, RequestByOp } from './requests.ts';

export interface ValidElement<O extends Op = Op> {
  ok: true;
  request: RequestByOp[O];
  options: ElementOptions;
}

export interface InvalidElement {
  ok: false;
  error: ErrorBody;
}

export type Validated<O extends Op = Op> = ValidElement<O> | InvalidElement;

const SURROGATE = /[\uD800-\uDFFF]/;
const INTEGER = /^[+-]?\d{1,9}$/;

/** Length in characters (code points), as a person counts them, not UTF-16 units. */
export function charLength(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function missing(name: string): InvalidElement {
  return { ok: false, error: errorBody('MISSING_PARAMETER', `Mandatory parameter '${name}' is missing or empty.`) };
}

function invalid(message: string): InvalidElement {
  return { ok: false, error: errorBody('INVALID_PARAMETER', message) };
}

/**
 * Checks one value against its definition. Returns the normalised value, or an error.
 * `undefined` means absent (and allowed).
 */
function checkParam(def: ParamDef, value: unknown): { value?: string | number } | InvalidElement {
  if (value === undefined || value === null) {
    return def.required ? missing(def.name) : {};
  }
  if (def.type === 'integer') {
    let n: number;
    if (typeof value === 'number' && Number.isInteger(value)) n = value;
    else if (typeof value === 'string' && INTEGER.test(value.trim())) n = Number(value.trim());
    else if (value === '' && !def.required) return invalid(`Parameter '${def.name}' must be an integer from ${def.min} to ${def.max}; it is empty.`);
    else return invalid(`Parameter '${def.name}' must be an integer from ${def.min} to ${def.max}.`);
    if (n < def.min || n > def.max) {
      return invalid(`Parameter '${def.name}' must be an integer from ${def.min} to ${def.max}; got ${n}.`);
    }
    return { value: n };
  }
  if (typeof value !== 'string') {
    return invalid(`Parameter '${def.name}' must be a string; got ${Array.isArray(value) ? 'array' : typeof value}.`);
  }
  if (value === '' && def.required) return missing(def.name);
  const len = charLength(value);
  if (len < def.min || len > def.max) {
    const bounds = def.min === def.max ? `exactly ${def.min}` : `${def.min} to ${def.max}`;
    return invalid(`Parameter '${def.name}' must be ${bounds} characters long; it has ${len}.`);
  }
  if (def.allowed && !def.allowed.includes(value.toLowerCase())) {
    return invalid(`Parameter '${def.name}' must be one of ${def.allowed.map((a) => `'${a}'`).join(', ')}.`);
  }
  return { value };
}

/** A JSON object (not null, not an array): the shape every request element must have. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Values a job, consumer or batch gives every element that does not give its own. */
export interface ElementDefaults {
  /** `search`: the soft default country (`--prefer-country`, a batch's top-level `prefer_country`). */
  prefer_country?: string;
}

/** The extension parameter `prefer_country` (not in the spec's tables). */
export const PREFER_COUNTRY = 'prefer_country';

/**
 * Checks a soft default country: the ISO 3166-1 alpha-2 code of a destination, any case.
 * Answers the code in upper case, nothing when absent or empty, or the 412 error.
 */
export function checkPreferCountry(value: unknown): { value?: string } | InvalidElement {
  if (value === undefined || value === null || value === '') return {};
  if (typeof value !== 'string') return invalid(`Parameter '${PREFER_COUNTRY}' must be a string; got ${Array.isArray(value) ? 'array' : typeof value}.`);
  const cc = value.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(cc) || !isSupportedDestination(cc)) {
    return invalid(`Parameter '${PREFER_COUNTRY}' must be the ISO 3166-1 alpha-2 code of a destination (DE, FR, PL, …); got '${value.slice(0, 20)}'.`);
  }
  return { value: cc };
}

/**
 * A request of each op holds every parameter of its table, in the table's order, `undefined` when
 * absent: every request of an op then has one shape (one hidden class), so that the engines read
 * its fields at one place each instead of through V8's megamorphic caches (a request built key by
 * key has a shape per combination of parameters given). Absent reads as absent: `undefined` is
 * what a missing key reads as, and JSON drops it (only `in` and `Object.keys` tell them apart,
 * and no reader of a request uses them).
 */
const REQUEST_SHAPES: Readonly<Record<Op, Readonly<Record<string, undefined>>>> = {
  search: shapeOf([...OP_PARAMS.search.map((d) => d.name), PREFER_COUNTRY]),
  lines: shapeOf(OP_PARAMS.lines.map((d) => d.name)),
};

function shapeOf(names: string[]): Record<string, undefined> {
  const o: Record<string, undefined> = {};
  for (const n of names) o[n] = undefined;
  return o;
}

/**
 * Validates one request element of `op` (a single-mode form body, a batch element, a file
 * record or a Kafka message). Unknown keys are ignored; credentials inside an element are ignored.
 * Mandatory parameters are checked first, so a record missing one always answers 428. `defaults`
 * (already checked by the caller with the same functions) fill what the element does not give.
 */
export function validateElement<O extends Op>(op: O, raw: unknown, defaults?: ElementDefaults): Validated<O> {
  if (!isPlainObject(raw)) {
    return invalid(`A request element must be a JSON object; got ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}.`);
  }
  const defs = OP_PARAMS[op];
  for (const def of defs) {
    if (!def.required) continue;
    const v = raw[def.name];
    if (v === undefined || v === null || v === '') return missing(def.name);
  }
  const request: Record<string, string | number | undefined> = { ...REQUEST_SHAPES[op] };
  for (const def of defs) {
    const r = checkParam(def, raw[def.name]);
    if ('ok' in r) return r;
    if (r.value !== undefined) request[def.name] = r.value;
  }
  if (op === 'search') {
    const r = checkPreferCountry(raw[PREFER_COUNTRY]);
    if ('ok' in r) return r;
    const cc = r.value ?? defaults?.prefer_country;
    if (cc) request[PREFER_COUNTRY] = cc;
  }
  const options: ElementOptions = { requestproof: false, returnavailablecredits: false };
  for (const def of OPTION_PARAMS) {
    const r = checkParam(def, raw[def.name]);
    if ('ok' in r) return r;
    if (r.value === undefined) continue;
    const v = String(r.value).toLowerCase();
    if (def.name === 'requestproof') options.requestproof = v === '1';
    else if (def.name === 'returnavailablecredits') options.returnavailablecredits = v === '1';
    else if (def.name === 'responseformat') options.responseformat = v as 'json' | 'xml';
  }
  for (const def of EXTENSION_PARAMS[op]) {
    const r = checkParam(def, raw[def.name]);
    if ('ok' in r) return r;
    if (def.name === 'explain' && r.value === '1') options.explain = true;
  }
  return { ok: true, request: request as unknown as RequestByOp[O], options };
}

export interface Credentials {
  license: string;
  guid: string;
}

/**
 * Checks the two credential fields. Does not authenticate.
 * - missing or empty: 401 (the spec's Errors table names "missing" credentials under 401);
 * - wrong type or length: 412 (the parameter table's min/max rule);
 * a well-formed pair that matches no active account is the store's 401, not this function's.
 */
export function validateCredentials(raw: Record<string, unknown>): { ok: true; credentials: Credentials } | InvalidElement {
  for (const def of CREDENTIAL_PARAMS) {
    const v = raw[def.name];
    if (v === undefined || v === null || v === '') {
      return { ok: false, error: errorBody('UNAUTHORIZED', `License key and/or GUID is missing: '${def.name}' was not given.`) };
    }
  }
  for (const def of CREDENTIAL_PARAMS) {
    const r = checkParam(def, raw[def.name]);
    if ('ok' in r) return r;
  }
  return { ok: true, credentials: { license: raw.license as string, guid: raw.guid as string } };
}
