/**
 * The recipient-block engine: one pure function, request element in, record out. The request has
 * passed validateElement('lines'); everything else is answered with a status code, never thrown.
 *
 * Order of checks: 10 destination code, 11 sender code, 20 not supported, 50 no format,
 * 31 statecode (invalid or of another country), 30 mandatory fields, 31 postcode pattern,
 * 40 does not fit; then 1 (language fell back to English, international only) or 0.
 */
import type { LinesRequest } from '../../contract/requests.ts';
import { LINES_STATUS, type LinesRecord, type LinesStatusCode } from '../../contract/records.ts';
import { COMPILED_RULES, type CompiledRule } from './compiled.ts';
import { countryLine, countryNameLanguage } from './country-line.ts';
import { F, FIELD_COUNT, type FieldValues } from './fields.ts';
import { isAssignedCountryCode, isSupportedDestination } from './iso3166.ts';
import { fitBlock } from './reduce.ts';
import { resolveState } from './state.ts';

export { COMPILED_RULES } from './compiled.ts';

/** The contract's bounds of maxcharsperline (validate.ts enforces them; re-checked so that no input can break the engine). */
const MIN_LINE = 20;
const MAX_LINE = 80;

function statusRecord(code: LinesStatusCode): LinesRecord {
  return {
    addressline1: '', addressline2: '', addressline3: '', addressline4: '', addressline5: '', addressline6: '',
    addresslinestatuscode: code,
    addresslinestatusmessage: LINES_STATUS[code],
  };
}

/**
 * Whether a value holds whitespace other than single spaces, control characters or the glue code
 * points (a character scan: cheaper than a regex on short strings).
 */
function needsCleaning(s: string): boolean {
  let prevSpace = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (prevSpace) return true;
      prevSpace = true;
      continue;
    }
    prevSpace = false;
    if (c < 32) return true;
    if (c < 0x7f) continue;
    if (
      c <= 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
      c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff || c === 0xe000 || c === 0xe001
    ) {
      return true;
    }
  }
  return false;
}
const DIRTY_RUN = /[\s\x00-\x1f\x7f-\x9f\uE000\uE001]+/g;

/** Trimmed, whitespace collapsed to single spaces, control characters removed. '' when absent. */
function clean(x: unknown): string {
  if (typeof x !== 'string' || x === '') return '';
  let s = x;
  if (needsCleaning(s)) s = s.replace(DIRTY_RUN, ' ');
  const first = s.charCodeAt(0);
  const last = s.charCodeAt(s.length - 1);
  return first === 32 || last === 32 ? s.trim() : s;
}

const MARKS = /\p{M}+/gu;
const NON_ASCII = /[^\x00-\x7f]/;

const GREEK = /[\u0370-\u03ff\u1f00-\u1fff]/;

/**
 * Upper case by the text's own script rules: Greek capitals drop the tonos (Αθήνα → ΑΘΗΝΑ, as
 * ELTA writes them), which only the Greek locale's mapping does; everything else maps as Unicode
 * says (ß → SS).
 */
function upper(s: string, stripAccents: boolean): string {
  const u = GREEK.test(s) ? s.toLocaleUpperCase('el') : s.toUpperCase();
  return stripAccents && NON_ASCII.test(u) ? u.normalize('NFD').replace(MARKS, '').normalize('NFC') : u;
}

function code2(x: unknown): string {
  if (typeof x !== 'string') return '';
  const a = x.charCodeAt(0);
  const b = x.charCodeAt(1);
  return x.length === 2 && a >= 65 && a <= 90 && b >= 65 && b <= 90 ? x : x.toUpperCase();
}

function normaliseFields(c: CompiledRule, req: LinesRequest, v: FieldValues): void {
  v[F.additionaldata] = clean(req.additionaldata);
  v[F.street] = clean(req.street);
  v[F.housenumber] = clean(req.housenumber);
  v[F.district] = clean(req.district);
  v[F.city] = clean(req.city);
  v[F.county] = clean(req.county);
  v[F.zip] = clean(req.zip);
  for (let i = 0; i < c.clean.length; i++) {
    const [f, re] = c.clean[i]!;
    if (v[f] !== '') v[f] = v[f]!.replace(re, '');
  }
}

export function formatRecipientBlock(req: LinesRequest): LinesRecord {
  return formatWithRules(COMPILED_RULES, req);
}

/** The engine over a given rule table (the production table is COMPILED_RULES). */
export function formatWithRules(rules: ReadonlyMap<string, CompiledRule>, req: LinesRequest): LinesRecord {
  const dest = code2(req.countrycode);
  if (!isAssignedCountryCode(dest)) return statusRecord(10);
  const sender = code2(req.sendercountrycode);
  if (!isAssignedCountryCode(sender)) return statusRecord(11);
  if (!isSupportedDestination(dest)) return statusRecord(20);
  const c = rules.get(dest);
  if (c === undefined) return statusRecord(50);
  return formatWithRule(c, req, sender !== dest);
}

/** Formats with a given compiled rule (exported for tests of the status-50 mechanism and new rules). */
export function formatWithRule(c: CompiledRule, req: LinesRequest, international: boolean): LinesRecord {
  const v: FieldValues = ['', '', '', '', '', '', '', ''];
  normaliseFields(c, req, v);

  const state = resolveState(c, clean(req.statecode), clean(req.state), clean(req.statename));
  if (state === null) return statusRecord(31);
  v[F.state] = state;

  if (
    (c.requireStreet && v[F.street] === '') ||
    (c.requireCity && v[F.city] === '') ||
    (c.requireZip && v[F.zip] === '') ||
    (c.requireState && state === '')
  ) {
    return statusRecord(30);
  }

  if (v[F.zip] !== '') {
    const zip = c.postcode(v[F.zip]!);
    if (zip === null) return statusRecord(31);
    v[F.zip] = international ? c.postcodePrefixInternational + zip : zip;
  }

  for (let i = 0; i < c.dropIfSame.length; i++) {
    const [a, b] = c.dropIfSame[i]!;
    if (v[a] !== '' && v[a]!.toLowerCase() === v[b]!.toLowerCase()) v[a] = '';
  }
  for (let i = 0; i < c.suffix.length; i++) {
    const [f, sfx] = c.suffix[i]!;
    const x = v[f]!;
    const last = x.charCodeAt(x.length - 1);
    if (last >= 48 && last <= 57) v[f] = x + sfx;
  }
  const up = international ? c.upperInternational : c.upperDomestic;
  for (let i = 0; i < up.length; i++) {
    const f = up[i]!;
    if (v[f] !== '') v[f] = upper(v[f]!, c.stripAccents);
  }

  const requestedMax = req.maxcharsperline;
  if (requestedMax !== undefined && !(Number.isInteger(requestedMax) && requestedMax >= MIN_LINE && requestedMax <= MAX_LINE)) {
    return statusRecord(31);
  }
  const max = requestedMax ?? c.defaultMax;
  let status: LinesStatusCode = 0;
  let country = '';
  if (international) {
    let lang = countryNameLanguage(typeof req.countrynamelanguage === 'string' ? req.countrynamelanguage : '');
    if (lang === undefined) {
      lang = 'en';
      status = 1;
    }
    const name = countryLine(c.code, lang, max);
    if (name === null) return statusRecord(40);
    country = name;
  }

  const lines = fitBlock(c, v, max, international ? 1 : 0);
  if (lines === null) return statusRecord(40);
  if (international) lines.push(country);
  return {
    addressline1: lines[0] ?? '',
    addressline2: lines[1] ?? '',
    addressline3: lines[2] ?? '',
    addressline4: lines[3] ?? '',
    addressline5: lines[4] ?? '',
    addressline6: lines[5] ?? '',
    addresslinestatuscode: status,
    addresslinestatusmessage: LINES_STATUS[status],
  };
}
