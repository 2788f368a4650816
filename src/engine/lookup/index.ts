/**
 * The address lookup: a pure function over the index. Bad input gives a valid record with empty
 * keys and a low relevance; a defect throws, and the entrance turns it into an error result that
 * is not charged (a record with relevance 0 would be charged as a lookup that found nothing).
 *
 * The stages, one folder each (their modules' headers name them by these numbers); this module
 * only composes them:
 *
 *  1. normalize/    folding, tokens, house-number and postcode keys, abbreviations (shared with
 *                   the index build)
 *  2. parse/        the request (structured fields, free text, or both) → weighted query tokens,
 *                   postcodes, country, house number
 *  3. match/        each query token → the index tokens it matches (exact forms, expansions;
 *                   typo neighbours only when stage 8 asks)
 *  4. exact-path/   a proven answer from the documents holding every strong word (or all but
 *                   one), when no other document could score as high
 *  5. candidates/   the broad search's candidate documents, counted over postings
 *  6. score/        each candidate scored against the query; house number; postcode constraint
 *  7. choose/       the best street (else place or postcode document); a tie → ambiguous
 *  8. search/       the broad search (5–7), and its typo retry for the words nothing explains
 *  9. named-place/  the fallback: a street answer that agrees with the place the query names,
 *                   else the named place itself (postcode area, then city); a query that is
 *                   only a state's name: the state, unless a place of that name outweighs it;
 *                   free text whose last part (or its last words) names a state or county:
 *                   asked with it as that field; whose last part is a country's ISO code:
 *                   asked with it as the country; answered by nothing: asked without its
 *                   bracketed words, then (also when answered in part) with its free text's
 *                   typo neighbours naming places
 * 10. record/       the spec's record and its relevance
 * 11. explain/      on request only (lookupExplained): what became of each part of the input,
 *                   and the relevance deductions (score/deductions.ts) that applied
 */
import type { SearchRequest } from '../../contract/requests.ts';
import type { Explanation } from '../../contract/explain.ts';
import type { SearchRecord } from '../../contract/records.ts';
import { ROLE_ADMIN } from '../index/format.ts';
import type { AddressIndex } from '../index/index.ts';
import { exactChoice } from './exact-path/exact-path.ts';
import { Explainer } from './explain/explain.ts';
import { exactMatches } from './match/matches.ts';
import type { TokenMatch } from './match/token-match.ts';
import { countryCodePart } from './named-place/country-code-part.ts';
import { countriesOf } from './named-place/country-names.ts';
import { isSupportedDestination } from '../lines/iso3166.ts';
import { countryHomonym, namesInFull, placeNameQuery, placeNamedLikeCountry } from './named-place/country-place.ts';
import { fallback } from './named-place/fallback.ts';
import { parseRequest } from './parse/parse.ts';
import { stateAnswer } from './named-place/state-answer.ts';
import { statePart, withStateWords } from './named-place/state-part.ts';
import { buildRecord, type Choice } from './record/record.ts';
import { asMisspelt, explainsMore, leavesPlaceWords, misspeltAnswerStands, type Answered } from './search/misspelt-place.ts';
import { namedPlaceWithTypoRetry } from './search/named-place-retry.ts';
import { searchWithTypoRetry } from './search/typo-retry.ts';

export type { AddressIndex };

export function lookup(index: AddressIndex, req: SearchRequest): SearchRecord {
  const q0 = parseRequest(req);
  if (q0.tokens.length === 0) return buildRecord(index, q0, { best: undefined, ambiguous: false });
  const { q, choice } = answer(index, q0, exactMatches(index, q0));
  return buildRecord(index, q, choice);
}

type Parsed = ReturnType<typeof parseRequest>;

/**
 * The chosen answer of a query with tokens (stages 3–9) and the query it answers; a query that is
 * only a country's name first looks for a place of that name, and one that is only the name of a
 * country outside the destinations is asked as a place's name (country-place.ts).
 */
function answer(index: AddressIndex, q: Parsed, matches: TokenMatch[][]): { q: Parsed; choice: Choice } {
  const asPlace = placeNameQuery(q);
  if (asPlace) {
    const choice = search(index, asPlace, matches);
    if (namesInFull(index, asPlace, choice)) return { q: asPlace, choice: countryHomonym(choice) };
  }
  if (q.countryNameOnly) {
    // (a country's name that is also a state's, `England`: the state; `Luxembourg`: the city it is named after)
    const choice = placeNamedLikeCountry(index, q, matches);
    return stateAnswer(index, q, choice) ?? { q, choice };
  }
  const asked = withStatePart(index, ownAnswer(index, q, matches), matches);
  const done = withCountryCode(index, { q: asked.q, choice: withStateWords(index, asked.q, asked.choice) }, matches);
  // (only for the query as parsed: `matches` are its tokens')
  if (done.choice.best) return leavesPlaceWords(index, q, done, matches) ? misspeltOr(index, q, matches, done) : done;
  if (done.q !== q) return done;
  const unbracketed = withoutBrackets(index, done, matches);
  if (unbracketed.choice.best) return unbracketed;
  // answered by nothing: a place misspelt in free text (search/misspelt-place.ts)
  return misspeltOr(index, q, matches, unbracketed);
}

/**
 * The query asked again with its free text's typo neighbours naming places, when that answer
 * stands and `answered` (the query's own) is none or explains less of it (search/misspelt-place.ts).
 */
function misspeltOr(index: AddressIndex, q: Parsed, matches: TokenMatch[][], answered: Answered): Answered {
  const misspelt = asMisspelt(q);
  const retried = misspelt && answer(index, misspelt, matches);
  if (!retried || (answered.choice.best && !explainsMore(q, retried, answered))) return answered;
  return misspeltAnswerStands(retried.q, retried.choice, buildRecord(index, retried.q, retried.choice)) ? retried : answered;
}

/**
 * Free text or a city field answered by nothing whose words in round brackets nothing explains
 * (`Halle (Saale)`: the river that qualifies the name, which alone turns the guess `Halle` gets
 * into no answer; `{"city": "Cēsis (Cēsu nov.)"}`): the query asked without them, when that finds
 * an answer.
 */
function withoutBrackets(index: AddressIndex, own: { q: Parsed; choice: Choice }, matches: TokenMatch[][]): { q: Parsed; choice: Choice } {
  const q = own.q;
  const kept = q.tokens.flatMap((t, i) => (t.bracketed ? [] : [i]));
  if (kept.length === q.tokens.length || kept.length === 0) return own;
  const dropped = q.tokens.reduce((w, t) => w + (t.bracketed ? t.weight : 0), 0);
  const asked: Parsed = { ...q, tokens: kept.map((i) => q.tokens[i]!), totalWeight: q.totalWeight - dropped };
  const answer = ownAnswer(index, asked, kept.map((i) => matches[i]!));
  return answer.choice.best ? { q: answer.q, choice: withStateWords(index, answer.q, answer.choice) } : own;
}

/** The query's own answer: the search's, or the state the query names (state-answer.ts). */
function ownAnswer(index: AddressIndex, q: Parsed, matches: TokenMatch[][]): { q: Parsed; choice: Choice } {
  const choice = search(index, q, matches);
  return stateAnswer(index, q, choice) ?? { q, choice };
}

const relevanceOf = (index: AddressIndex, q: Parsed, c: Choice): number => Number(buildRecord(index, q, c).relevance);

/**
 * Free text whose last part is a country's ISO code that the answer leaves unexplained (`Wien,
 * AT`; a state's code is explained by the answer's state: `Toronto, ON`): the query asked with
 * the code as its country, when that answer is the more relevant one, or when the answer lies
 * outside the destination the code names (named-place/country-code-part.ts).
 */
function withCountryCode(index: AddressIndex, own: { q: Parsed; choice: Choice }, matches: TokenMatch[][]): { q: Parsed; choice: Choice } {
  const best = own.choice.best;
  const part = countryCodePart(own.q);
  if (!part) return own;
  // an answer in another country than the destination a part of its own names contradicts it,
  // unless the code is the answer's state's (`Fribourg, FR`): the code's answer, else none, which a
  // misspelt place may then give (`São Pulo, BR` is not Pulo do Cão, PT; `Kiel, DE` not De Kiel,
  // NL, whose name holds both words). Not a code typed after words, which may be an Italian
  // province's (`Serravalle AR`)
  const codeIsCountry = part.ownPart && isSupportedDestination(part.asked.country) && best !== undefined && best.roles[part.token] !== ROLE_ADMIN;
  const contradicted = codeIsCountry && countriesOf(index).of(best.doc) !== part.asked.country;
  // an answer that explains the code stands, unless it reads a destination's code of its own part
  // as a word of a name: then the code's answer when it is the more relevant (`Hamburg, DE` is
  // Hamburg, not Hamburg-Nord by an alternate name holding `de`)
  if (best && best.explained[part.token]! > 0 && !codeIsCountry) return own;
  const coded = ownAnswer(index, part.asked, part.kept.map((i) => matches[i]!));
  const choice = withStateWords(index, coded.q, coded.choice);
  if (contradicted) return choice.best ? { q: coded.q, choice } : { q: own.q, choice: { best: undefined, ambiguous: false } };
  if (!choice.best) return own;
  return relevanceOf(index, coded.q, choice) > relevanceOf(index, own.q, own.choice) ? { q: coded.q, choice } : own;
}

/**
 * Free text whose last part, or its last words, names a state or county (`Munich, Bavaria`,
 * `Cascina, Pisa`, `Getafe (Madrid)`): the query asked without those words and with them as its
 * field, when that answer lies there and is the more relevant one (named-place/state-part.ts).
 */
function withStatePart(index: AddressIndex, own: { q: Parsed; choice: Choice }, matches: TokenMatch[][]): { q: Parsed; choice: Choice } {
  // (an answer that explains every word in full leaves the state part nothing to add: `…, Berlin`)
  if (own.choice.best?.explained.every((x) => x >= 1)) return own;
  const part = statePart(index, own.q, own.choice.best?.explained);
  if (!part) return own;
  const choice = search(index, part.asked, part.kept.map((i) => matches[i]!));
  const best = choice.best;
  // kept words of a street would name a village of the street's name in the state (`ulica Tadeusza
  // Kościuszki, Łódź` is not the village Kościuszki in the voivodeship CLDR calls Łódź); a place
  // whose name holds such a word is named by all of them (`Neustadt an der Weinstraße`)
  if (!best || !part.within(best.doc) || (part.streetWords && !best.explained.every((x) => x >= 1))) return own;
  return relevanceOf(index, part.asked, choice) > relevanceOf(index, own.q, own.choice) ? { q: part.asked, choice } : own;
}

/** Stages 4–9; on an index that holds no street (the embedded default) stage 8 asks the named place (stage 9): search/named-place-retry.ts. */
function search(index: AddressIndex, q: Parsed, matches: TokenMatch[][]): Choice {
  return exactChoice(index, q, matches)
    ?? (index.holdsStreets ? fallback(index, q, matches, searchWithTypoRetry(index, q, matches)) : namedPlaceWithTypoRetry(index, q, matches));
}

/** The same answer as lookup(), with its explanation (stage 11): asked for only, never on the default path. */
export function lookupExplained(index: AddressIndex, req: SearchRequest): { record: SearchRecord; explain: Explanation } {
  const q0 = parseRequest(req);
  const matches = q0.tokens.length === 0 ? [] : exactMatches(index, q0);
  const { q, choice } = q0.tokens.length === 0 ? { q: q0, choice: { best: undefined, ambiguous: false } } : answer(index, q0, matches);
  const explainer = new Explainer(index, req, q, matches, choice);
  const record = buildRecord(index, q, choice, explainer);
  return { record, explain: explainer.explain(req, q, choice, record) };
}
