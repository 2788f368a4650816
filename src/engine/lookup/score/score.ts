/**
 * Stage 6 (score, see ../index.ts): score candidate documents against the query, keeping a
 * per-field match quality (which query token each document explains, with which role and quality),
 * then find the house number inside street documents. The postcode is a strong constraint: when a
 * valid postcode agrees with the city (or no city is given), a street outside that postcode is not
 * answered.
 */
import {
  DOC_PLACE, DOC_POSTCODE, DOC_STREET, PLACE_ROLES, ROLE_CITY, ROLE_DISTRICT, ROLE_NAME, ROLE_ZIP,
} from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import type { TokenMatch } from '../match/token-match.ts';
import type { Field, ParsedQuery } from '../parse/parse.ts';
import type { QueryBits } from '../match/query-bits.ts';
import { intersectSorted } from '../candidates/sorted-lists.ts';

export interface Scored {
  doc: number;
  kind: number;
  /** The document's rank (read once: the sort compares it many times). */
  rank: number;
  /** Per query token: the quality with which this document explains it (0 = not). */
  explained: number[];
  /** Per query token: the role that explained it (-1 none). */
  roles: number[];
  /** Share of the document's name tokens the query covers (streets). */
  nameCoverage: number;
  nameTokensMatched: number;
  /** Matched address (house-number level), -1 when none. */
  addr: number;
  /** Quality of the house-number match (1 exact, lower for a base-number fallback). */
  hnQuality: number;
  /** Index of the query token used as house number (-1: the housenumber field or none). */
  hnToken: number;
  zipMatched: boolean;
  /** The query's postcode is valid elsewhere and this street lies outside it. */
  zipConflict: boolean;
  typo: boolean;
  score: number;
}

/** Score added for a street whose name the query covers entirely (times the share covered). */
export const STREET_COVERAGE_BONUS = 0.6;
/** Score added for the house number of the housenumber field (times the match's quality). */
export const HOUSENUMBER_FIELD_BONUS = 1.2;
/** Most a place document's rank adds to its score. */
const PLACE_RANK_BONUS = 0.3;

function roleFactor(field: Field, role: number): number {
  switch (field) {
    case 'free': return 1;
    case 'street': return role === ROLE_NAME ? 1 : role === ROLE_ZIP ? 0 : 0.4;
    case 'city':
    case 'district': return role === ROLE_CITY || role === ROLE_DISTRICT ? 1 : role === ROLE_NAME ? 0.3 : 0;
    case 'zip': return role === ROLE_ZIP ? 1 : 0;
    case 'housenumber': return 0;
  }
}

/**
 * A per-query-token array of `value` (a Scored's `explained` and `roles`): a plain array, made by
 * pushing. scoreDoc makes two for every document it scores, and a small typed array costs about
 * twice as much to make (a `fill` call besides).
 */
export function perToken(n: number, value: number): number[] {
  const a: number[] = [];
  for (let i = 0; i < n; i++) a.push(value);
  return a;
}

/** Scratch of scoreDoc: per document token, the query tokens it matches; and which are taken. */
let tokBits = new Uint32Array(64);
let used = new Uint8Array(64);

/**
 * Scores one document. `bits` maps the query's matched index tokens to query tokens (built
 * once per candidate set): a query token no document token matches is skipped at once, and the
 * matches of the others are compared only with the document tokens that hold them.
 */
export function scoreDoc(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], doc: number, bits: QueryBits): Scored {
  const c = index.c;
  const n = q.tokens.length;
  const explained = perToken(n, 0);
  const roles = perToken(n, -1);
  const ts = c.docTokStart[doc]!;
  const tc = index.docTokEnd(doc) - ts;
  if (tc > tokBits.length) { tokBits = new Uint32Array(tc * 2); used = new Uint8Array(tc * 2); }
  let nameTotal = 0;
  let docMask = 0;
  for (let j = 0; j < tc; j++) {
    if (c.docTokRole[ts + j] === ROLE_NAME) nameTotal++;
    const b = bits.of(c.docTok[ts + j]!);
    tokBits[j] = b;
    used[j] = 0;
    docMask |= b;
  }
  let nameMatched = 0;
  let typo = false;
  let zipMatched = false;
  const kind = c.docKind[doc]!;
  for (let i = 0; i < n; i++) {
    const bit = (1 << i) >>> 0;
    if (!(docMask & bit)) continue;
    const t = q.tokens[i]!;
    let best = 0, bestRole = -1, bestJ = -1, bestTypo = false;
    for (const m of matches[i]!) {
      for (let j = 0; j < tc; j++) {
        if (!(tokBits[j]! & bit) || used[j] || c.docTok[ts + j] !== m.tok) continue;
        const role = c.docTokRole[ts + j]!;
        const v = m.quality * roleFactor(t.field, role);
        if (v > best) { best = v; bestRole = role; bestJ = j; bestTypo = m.kind === 'typo'; }
      }
    }
    if (bestJ >= 0) {
      used[bestJ] = 1;
      explained[i] = best;
      roles[i] = bestRole;
      if (bestRole === ROLE_NAME) nameMatched++;
      if (bestRole === ROLE_ZIP) zipMatched = true;
      if (bestTypo) typo = true;
    }
  }
  const s: Scored = {
    doc, kind, rank: c.docRank[doc]!, explained, roles,
    nameCoverage: nameTotal > 0 ? nameMatched / nameTotal : 0,
    nameTokensMatched: nameMatched,
    addr: -1, hnQuality: 0, hnToken: -1, zipMatched, zipConflict: false, typo, score: 0,
  };
  s.score = baseScore(index, q, s);
  return s;
}

function baseScore(index: AddressIndex, q: ParsedQuery, s: Scored): number {
  let e = 0;
  for (let i = 0; i < s.explained.length; i++) e += s.explained[i]! * q.tokens[i]!.weight;
  if (s.kind === DOC_STREET) {
    e += STREET_COVERAGE_BONUS * s.nameCoverage;
    if (s.nameTokensMatched === 0) e -= 1;
  } else if (s.kind === DOC_PLACE) {
    e += Math.min(PLACE_RANK_BONUS, Math.log10(1 + index.c.docRank[s.doc]!) / 30);
  }
  if (q.country && index.str(index.c.docCountry[s.doc]!) !== q.country) e -= 3;
  return e;
}

/** A house-number key of the query, resolved once per lookup. */
export interface HouseNumberKey {
  key: string;
  /** Token id of the key, -1 when the index has no such house number. */
  tok: number;
  /** UTF-8 of `key-`, to recognise a range "168-170" answering "168" (made when first needed). */
  rangePrefix: Uint8Array | undefined;
  /** Query token index (-1: the housenumber field). */
  token: number;
  quality: number;
}

const utf8 = new TextEncoder();

/** The house-number keys of a query: the housenumber field, or else the number-like free tokens. */
export function houseNumberTokens(index: AddressIndex, q: ParsedQuery): HouseNumberKey[] {
  const out: HouseNumberKey[] = [];
  const add = (key: string, token: number, quality: number) =>
    out.push({ key, tok: index.tokenId(key), rangePrefix: undefined, token, quality });
  if (q.hnKeys.length > 0) q.hnKeys.forEach((k, i) => add(k, -1, i === 0 ? 1 : 0.7));
  else q.tokens.forEach((t, i) => { if (t.hnLike) add(t.text, i, 1); });
  return out;
}

/** Looks up the house number in a street document; sets addr/hnQuality/hnToken and the score. */
export function matchHouseNumber(index: AddressIndex, q: ParsedQuery, s: Scored, keys: HouseNumberKey[]): void {
  if (s.kind !== DOC_STREET || keys.length === 0) return;
  const c = index.c;
  const start = c.docAddrStart[s.doc]!;
  const count = c.docAddrCount[s.doc]!;
  if (count === 0) return;
  let zipWanted = q.zipKeys[0] ?? '';
  if (!zipWanted) q.tokens.forEach((t, i) => { if (s.roles[i] === ROLE_ZIP) zipWanted = t.text; });
  const hnTok = c.addrHnTok;
  for (const k of keys) {
    // free-text number tokens the document already explains (a postcode) are not house numbers
    if (k.token >= 0 && s.explained[k.token] !== 0) continue;
    const tok = k.tok;
    let found = -1;
    if (tok >= 0) {
      for (let a = start; a < start + count; a++) {
        if (hnTok[a] !== tok) continue;
        if (found < 0 || (c.addrPostcode[found] === 0 && c.addrPostcode[a] !== 0)) found = a;
        // several points with this number: prefer the one in the requested postcode
        if (zipWanted && postcodeEq(index.str(c.addrPostcode[a]!), zipWanted)) { found = a; break; }
      }
    }
    let quality = k.quality;
    if (found < 0) {
      // a range "168-170" answers "168"
      const prefix = (k.rangePrefix ??= utf8.encode(k.key + '-'));
      for (let a = start; a < start + count; a++) {
        if (index.tokenStartsWith(hnTok[a]!, prefix)) { found = a; quality *= 0.9; break; }
      }
    }
    if (found >= 0) {
      s.addr = found;
      s.hnQuality = quality;
      s.hnToken = k.token;
      if (k.token >= 0) s.explained[k.token] = quality;
      s.score += quality * (k.token >= 0 ? 1 : HOUSENUMBER_FIELD_BONUS);
      return;
    }
  }
}

function postcodeEq(a: string, key: string): boolean {
  return a.replace(/[^0-9A-Za-z]/g, '').toLowerCase() === key;
}

/**
 * Applies the postcode constraint. A zip is "valid" when the index knows it; it "agrees with
 * the city" when a document holding it also holds every one of the query's city tokens as city
 * or district (or no city was given): "København V" does not agree with a København K postcode,
 * although the two share a word. Then streets outside the postcode are marked as conflicting.
 */
export function applyPostcodeConstraint(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], scored: Scored[]): void {
  // whether the postcode binds matters only when some street lies outside it
  if (!scored.some((s) => s.kind === DOC_STREET && !s.zipMatched)) return;
  if (bindingZipToken(index, q, matches) < 0) return;
  for (const s of scored) {
    if (s.kind === DOC_STREET && !s.zipMatched) s.zipConflict = true;
  }
}

/**
 * The query token of a postcode that binds the answer (valid, and agreeing with the city named;
 * see applyPostcodeConstraint), or -1. Computed once per query: typo matches play no part.
 */
export function bindingZipToken(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): number {
  let binding = zipBinds.get(q);
  if (binding === undefined) zipBinds.set(q, (binding = zipBindsQuery(index, q, matches)));
  return binding ? q.tokens.findIndex((t) => t.field === 'zip') : -1;
}

const zipBinds = new WeakMap<ParsedQuery, boolean>();

function zipBindsQuery(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): boolean {
  const zi = q.tokens.findIndex((t) => t.field === 'zip');
  if (zi < 0) return false;
  const city: number[] = [];
  q.tokens.forEach((t, i) => { if (t.field === 'city' || t.field === 'district') city.push(i); });
  return postcodeAgrees(index, q, matches, zi, city);
}

/**
 * Whether the postcode token `zi` is in the index (in the query's country) and, when `place`
 * tokens are given, a document holding it also holds every one of them as a city or district
 * word (typo matches play no part).
 */
export function postcodeAgrees(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], zi: number, place: number[]): boolean {
  const zipTok = matches[zi]![0]?.tok;
  if (zipTok === undefined) return false;
  const c = index.c;
  const cityToks = new Set<number>();
  for (const i of place) for (const m of matches[i]!) if (m.kind !== 'typo') cityToks.add(m.tok);
  const p = index.postings(zipTok);
  const zipDocs = p.subarray(0, Math.min(p.length, 5000));
  const inCountry = (d: number) => !q.country || index.str(c.docCountry[d]!) === q.country;
  let valid = false;
  for (let k = 0; k < zipDocs.length && !valid; k++) valid = inCountry(zipDocs[k]!);
  if (!valid || cityToks.size === 0) return valid;
  // the documents holding the postcode and the rarest city tokens (sorted merges), then the
  // roles of every city token in the few left
  let docs: ArrayLike<number> = zipDocs;
  const byRarity = [...cityToks].sort((a, b) => index.postingCount(a) - index.postingCount(b));
  for (let k = 0; k < byRarity.length && docs.length > 16; k++) docs = intersectSorted(docs, index.postings(byRarity[k]!));
  for (let k = 0; k < docs.length; k++) {
    const d = docs[k]!;
    if (inCountry(d) && holdsAsPlace(index, d, cityToks)) return true;
  }
  return false;
}

/** Document `doc` holds every token of `toks` as a city or district word. */
function holdsAsPlace(index: AddressIndex, doc: number, toks: Set<number>): boolean {
  for (const tok of toks) if (!index.docHolds(doc, tok, PLACE_ROLES)) return false;
  return true;
}

export { DOC_POSTCODE, DOC_PLACE, DOC_STREET };
