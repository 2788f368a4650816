/**
 * The explanation of an answer, on request only (issue 18): after the stages have answered,
 * what became of each part of the input (matched, corrected, inferred, ignored) and, through
 * the record stage's deduction sink (../score/deductions.ts), each relevance deduction with its
 * points. It reads what the stages left (the parsed query, the token matches, the chosen
 * document's per-word quality and roles) and changes nothing: a lookup that does not ask runs
 * none of this and allocates nothing for it.
 */
import type { ExplainPart, Explanation } from '../../../contract/explain.ts';
import type { SearchRequest } from '../../../contract/requests.ts';
import type { SearchRecord } from '../../../contract/records.ts';
import { DOC_STREET, ROLE_ADMIN, ROLE_CITY, ROLE_DISTRICT, ROLE_NAME, ROLE_ZIP } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import type { TokenMatch } from '../match/token-match.ts';
import { foldText, foldTokens } from '../normalize/normalize.ts';
import type { NamedPlace } from '../named-place/named-place.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import type { Choice } from '../record/record.ts';
import {
  ABBREVIATION, HOUSENUMBER_APPROXIMATE, OTHER_ROLE, POSTCODE_NOT_MATCHED, POSTCODE_PREFIX, TYPO, UNEXPLAINED_WORD,
  WEAK_PLACE_NAME, type Deduction, type DeductionSink,
} from '../score/deductions.ts';
import type { Scored } from '../score/score.ts';

/** What became of one query word. */
interface WordFate {
  part: ExplainPart;
  /** Why its match lacks quality (the deduction its lost share is reported under). */
  reason: Deduction;
}

/** The answer's key a document role fills. */
function fieldOfRole(role: number, s: Scored): string {
  switch (role) {
    case ROLE_NAME: return s.kind === DOC_STREET ? 'street' : 'city';
    case ROLE_CITY: return 'city';
    case ROLE_DISTRICT: return 'district';
    case ROLE_ZIP: return 'zip';
    case ROLE_ADMIN: return 'state';
    default: return '';
  }
}

/** Folded word → the word as written, for each word of `texts` (the first spelling wins). */
function wordsAsWritten(texts: readonly (string | undefined)[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const text of texts) {
    if (!text) continue;
    for (const w of text.split(/[^\p{L}\p{N}]+/u)) {
      const f = foldTokens(w);
      if (f.length === 1 && !out.has(f[0]!)) out.set(f[0]!, w);
    }
  }
  return out;
}

/** The facts of an explanation, made once per explained lookup. */
export class Explainer implements DeductionSink {
  readonly list: Deduction[] = [];
  private readonly fates: WordFate[];
  /** Folded word → as the input wrote it. */
  private readonly typed: Map<string, string>;

  constructor(index: AddressIndex, req: SearchRequest, q: ParsedQuery, matches: TokenMatch[][], choice: Choice) {
    this.typed = wordsAsWritten([req.street, req.city, req.district, req.address, req.zip, req.state]);
    this.fates = q.tokens.map((_, i) => wordFate(index, q, matches, choice.best, i, this.typed));
  }

  wordReason(token: number): Deduction {
    return this.fates[token]!.reason;
  }

  /** The explanation of the record built with this sink. */
  explain(req: SearchRequest, q: ParsedQuery, choice: Choice, rec: SearchRecord): Explanation {
    const answered = wordsAsWritten([rec.street, rec.city, rec.district, rec.state]);
    const parts: ExplainPart[] = [];
    for (const f of this.fates) {
      // (p.became is the index's folded word: the answer's spelling of it is looked up)
      const p = f.part.field === 'housenumber' ? { ...f.part, became: rec.housenumber } : f.part;
      // the answer's own spelling of a matched word; a spelling that differs only in its diacritics is a correction
      const written = p.status !== 'ignored' && p.field !== 'zip' && p.field !== 'housenumber' ? answered.get(p.became) : undefined;
      if (written !== undefined) {
        const typedAs = p.input;
        if (p.status === 'matched' && typedAs.toLowerCase() !== written.toLowerCase()
          && foldText(typedAs) === foldText(written) && typedAs.normalize('NFD') !== written.normalize('NFD')) {
          parts.push({ ...p, status: 'corrected', became: written, why: 'diacritics' });
          continue;
        }
        parts.push({ ...p, became: written });
      } else parts.push(p);
    }
    const s = choice.best;
    if (q.hnKeys.length > 0) {
      const found = s !== undefined && s.addr >= 0 && s.hnToken < 0;
      parts.push(found
        ? { input: q.hnKeys[0]!, status: s.hnQuality < 1 ? 'corrected' : 'matched', field: 'housenumber', became: rec.housenumber, why: s.hnQuality < 1 ? 'base number or range' : '' }
        : { input: q.hnKeys[0]!, status: 'ignored', field: '', became: '', why: 'no such house number in the answer' });
    }
    const lost = (code: string) => this.list.some((d) => d.code === code);
    if (req.country) {
      parts.push(lost('COUNTRY_NOT_MATCHED')
        ? { input: req.country, status: 'ignored', field: '', became: '', why: q.countryUnknown ? 'unknown country' : 'not the answer\'s country' }
        : { input: req.country, status: 'matched', field: 'country_iso_2', became: rec.country_iso_2, why: '' });
    } else if (q.country) {
      // the country's words as the input wrote them (`Deutschland`), not its code
      const input = q.countryText.split(' ').map((w) => this.typed.get(w) ?? w).join(' ');
      parts.push({ input, status: 'matched', field: 'country_iso_2', became: rec.country_iso_2, why: 'a country named in the text' });
    }
    // the state and county fields, or one named in the text's last part (../named-place/state-part.ts)
    const asTyped = (folded: string) => folded.split(' ').map((w) => this.typed.get(w) ?? w).join(' ');
    for (const [field, given, values, code] of [['state', req.state, q.state, 'STATE_NOT_MATCHED'], ['county', req.county, q.county, 'COUNTY_NOT_MATCHED']] as const) {
      const input = given && values.length > 0 ? given : !given && values.length > 0 ? asTyped(values[0]!) : '';
      if (!input) continue;
      parts.push(lost(code) ? { input, status: 'ignored', field: '', became: '', why: `not the answer's ${field}` }
        : { input, status: 'matched', field, became: rec[field], why: given ? '' : `a ${field} named in the text` });
    }
    // what the answer holds that the input did not give
    const given = new Set(parts.filter((p) => p.status !== 'ignored').map((p) => p.field));
    if (rec.country_iso_2 && !q.country) parts.push(inferred('country_iso_2', rec.country_iso_2, s ? 'the country of the place found' : ''));
    for (const field of ['state', 'city', 'district', 'zip'] as const) {
      if (rec[field] && !given.has(field)) parts.push(inferred(field, rec[field], 'from the answer found'));
    }
    return { parts, deductions: this.list };
  }
}

function inferred(field: string, became: string, why: string): ExplainPart {
  return { input: '', status: 'inferred', field, became, why };
}

function ignored(input: string, reason: Deduction, why: string): WordFate {
  return { part: { input, status: 'ignored', field: '', became: '', why }, reason };
}

/** What became of query word `i` in the answer `s`. */
function wordFate(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], s: Scored | undefined, i: number, typed: Map<string, string>): WordFate {
  const t = q.tokens[i]!;
  const input = typed.get(t.text) ?? t.text;
  const isPostcode = t.field === 'zip' || q.zipCands.some((z) => z.key === t.text);
  const x = s ? s.explained[i]! : 0;
  if (!s || x === 0) {
    return isPostcode ? ignored(input, POSTCODE_NOT_MATCHED, 'not the answer\'s postcode') : ignored(input, UNEXPLAINED_WORD, 'nothing in the answer explains it');
  }
  if (s.hnToken === i) {
    const exact = x >= 1;
    return { part: { input, status: exact ? 'matched' : 'corrected', field: 'housenumber', became: '', why: exact ? '' : 'base number or range' }, reason: HOUSENUMBER_APPROXIMATE };
  }
  if ((s as NamedPlace).stateOnly) {
    // a state answered (../named-place/state-answer.ts): by its local name, or by a language-tagged one
    const exact = x >= 1;
    return { part: { input, status: exact ? 'matched' : 'corrected', field: 'state', became: t.text, why: exact ? 'the name of a state: the state answers' : 'another name of a state: the state answers' }, reason: WEAK_PLACE_NAME };
  }
  const role = s.roles[i]!;
  const field = fieldOfRole(role, s);
  // the best of the word's matches the document holds in that role
  let best: TokenMatch | undefined;
  for (const m of matches[i] ?? []) {
    if (role >= 0 && index.docHolds(s.doc, m.tok, 1 << role) && (!best || m.quality > best.quality)) best = m;
  }
  if (!best) {
    // a named place (the fallback): its words were matched by name, postcode or prefix
    const reason = role === ROLE_ZIP ? POSTCODE_PREFIX : WEAK_PLACE_NAME;
    const exact = x >= 1;
    return { part: { input, status: exact ? 'matched' : 'corrected', field, became: field === 'zip' ? t.text : t.text, why: exact ? '' : role === ROLE_ZIP ? 'postcode prefix' : 'another name, a misspelling or the first words' }, reason };
  }
  const became = index.tokenText(best.tok);
  // German ae/oe/ue typed for ä/ö/ü (parse's umlaut variant): the folded word without the e
  if (became !== t.text && became === t.text.replace(/([aou])e/g, '$1')) return { part: { input, status: 'corrected', field, became, why: 'transliteration' }, reason: OTHER_ROLE };
  if (best.kind === 'typo') return { part: { input, status: 'corrected', field, became, why: 'typo' }, reason: TYPO };
  if (best.kind === 'expansion' || (best.quality < 1 && became !== t.text)) return { part: { input, status: 'corrected', field, became, why: 'abbreviation' }, reason: ABBREVIATION };
  if (became !== t.text) return { part: { input, status: 'corrected', field, became, why: 'another form' }, reason: OTHER_ROLE };
  // a place matched by one of its other names (an exonym: Cologne for Köln) counts less than by its own
  if (field === 'city' && x < best.quality - 1e-9) return { part: { input, status: 'corrected', field, became, why: 'another name of the place' }, reason: WEAK_PLACE_NAME };
  return { part: { input, status: 'matched', field, became, why: x < best.quality - 1e-9 ? 'in another role' : '' }, reason: OTHER_ROLE };
}
