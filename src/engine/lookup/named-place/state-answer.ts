/**
 * Stage 9 (named place, see ../index.ts), a query whose words are only a state's name (`Bavaria`,
 * `Bayern`, `Île-de-France`, `Noord-Holland, Nederland`), or its name and its own code (`Tasmania
 * TAS`): the state, when it outweighs the place of that name the search found. The state answer
 * has the country and the state (state, state_name, state_code as any answer of the state's: local
 * by default, the locale's where a translation exists), no city, the point of the state's most
 * important place (state-table.ts) and matchlevel `general`.
 *
 * The place (or postal place) the search chose stays:
 * - when the state is named after it: the place lies in the state, its name's words are all in
 *   one of the state's names and it explains every word of the query but an article (`Berlin`,
 *   `Wien`/`Vienna`, `Geneva`, `Salzburg`, `Luxembourg`, `Madrid`, the towns that are first-level
 *   subdivisions in SI and MT, `Tas-Sliema`; not `Baden-Württemberg` for Baden-Baden, nor
 *   `Schleswig-Holstein` for Schleswig, nor `Hrpelje–Kozina` for Kozina);
 * - when it outweighs the state (placeOutweighs): named by its own name, it is a city or the state
 *   is not MUCH_MORE_IMPORTANT than it (`Münster` is the city, not the Irish province; `Bavaria` is
 *   the Land, not the village); named otherwise (another name, its first words), it is
 *   MUCH_MORE_IMPORTANT than a state named by its local name, or more important than one named by
 *   a tagged name (`Freiburg`: Freiburg im Breisgau, not the canton of Fribourg);
 * - when the query gives a reason for it: a postcode, a house number, a street or any other word
 *   than the state's name, a county, or a country where no state bears the name (`Bavaria, Italy`
 *   is the village); none of these reaches here, since only a query that is the name alone does.
 *
 * Relevance (../score/deductions.ts): the state's local name explains its words in full; a
 * language-tagged name (an exonym: `Bavaria`) explains them as another name does (quality
 * ALT_NAME_QUALITY: WEAK_PLACE_NAME); two states of the name, neither MUCH_MORE_IMPORTANT than the
 * other, and nothing in the query deciding: the more important one, as a guess (HOMONYM_GUESS).
 * The place that stays over a state of its name is a guess too (HOMONYM_GUESS) unless it is sure
 * (placeSurely: `Tabor`, `Münster`); `Videm, Slovenia` is the village, or the municipality.
 */
import { DOC_PLACE, DOC_STREET, ROLE_ADMIN } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import { saintForms } from '../normalize/abbreviations.ts';
import { foldTokens } from '../normalize/normalize.ts';
import { COUNTRY_WEIGHT, type ParsedQuery, type QueryToken } from '../parse/parse.ts';
import type { Choice } from '../record/record.ts';
import { HOMONYM_GUESS, type Deduction } from '../score/deductions.ts';
import type { NamedPlace } from './named-place.ts';
import { MUCH_MORE_IMPORTANT, POSTAL_PLACE_RANK, typedWords } from './place-hits.ts';
import { MAX_STATE_WORDS, stateTable, statesCalled, type State, type StateNaming } from './state-table.ts';
import { perToken } from '../score/score.ts';

/** How well a state's language-tagged name explains the words: as another name of a place does (place-hits.ts). */
const ALT_NAME_QUALITY = 0.9;
/** A city's rank (src/data/build/stages/place-documents.ts: a city's type, or 100,000 people, or a smaller seat). */
const CITY_RANK = 100_000;

/**
 * The state answer to `q` in place of the search's `choice` (with the query it answers: the same,
 * or one whose country words are part of the state's name), or undefined: the choice stands.
 */
export function stateAnswer(index: AddressIndex, q: ParsedQuery, choice: Choice): { q: ParsedQuery; choice: Choice } | undefined {
  if (!onlyWords(q)) return undefined;
  let text = q.tokens.map((t) => t.text).join(' ');
  let named = statesNamed(index, text, q.country);
  if (!named) {
    // a saint abbreviated (`St Julian's` for the council Saint Julian's: abbreviations.ts)
    const saint = q.tokens.map((t) => saintForms(t.text)[0] ?? t.text).join(' ');
    if (saint !== text && (named = statesNamed(index, saint, q.country))) text = saint;
  }
  if (!named && q.tokens.length >= 2) {
    // the state's name and its own code after it (`Tasmania TAS`, `Bayern BY`, `Vaud VD`)
    const code = q.tokens[q.tokens.length - 1]!.text;
    const rest = q.tokens.slice(0, -1).map((t) => t.text).join(' ');
    const coded = statesNamed(index, rest, q.country)?.filter((n) => codeOf(n.state) === code);
    if (coded && coded.length > 0) { named = coded; text = rest; }
  }
  let asked = q;
  if (!named && q.countryText !== '' && !q.countryNameOnly) {
    // the words that named a country are part of the state's name (`North Holland`, `Île-de-France`,
    // `New South Wales`: not Wales): they name no country, and the state may be in any; named
    // twice, the country's last words name the country (`Île-de-France, France`)
    const whole = foldTokens(q.rawText);
    const cw = q.countryText.split(' ');
    const again = q.countryWeight > COUNTRY_WEIGHT && whole.slice(-cw.length).join(' ') === q.countryText;
    const words = again ? whole.slice(0, -cw.length) : whole;
    named = statesNamed(index, words.join(' '), again ? q.country : '');
    if (named) asked = withCountryWords(q, words, again);
  }
  if (!named) return undefined;
  const best = choice.best;
  const c = index.c;
  if (best) {
    const code = index.str(c.admStateCode[c.docAdmin[best.doc]!]!);
    const own = named.find((n) => n.state.code === code);
    // (named after it when the place explains every word but an article, `Tas-Sliema`: `Baden-Württemberg`
    // is not named after Baden-Baden, nor `Hrpelje–Kozina` after Kozina)
    if (own && q.tokens.every((t, i) => best.explained[i]! > 0 || t.text.length <= 3) && namedAfter(index, best.doc, own.state)) return undefined;
    // (a place that leaves words of the state's name unexplained is no rival: `Zagreb County`)
    if (c.docKind[best.doc] !== DOC_STREET && !best.explained.includes(0)) {
      const place = weighPlace(index, best.doc, text);
      if (placeOutweighs(place, named[0]!)) return placeSurely(index, q, place, named[0]!) ? undefined : { q, choice: { ...choice, best: asGuess(best) } };
    }
  }
  return { q: asked, choice: { best: stateChoice(index, asked, named), ambiguous: false } };
}

/** The query is words of free text only (no postcode, house number, county, or other field): a name alone. */
function onlyWords(q: ParsedQuery): boolean {
  const n = q.tokens.length;
  if (n === 0 || n > MAX_STATE_WORDS || q.county.length > 0 || q.hnKeys.length > 0 || q.zipCands.length > 0) return false;
  return q.tokens.every((t) => t.field === 'free');
}

/**
 * The place `doc` the search found is the better answer than the state, weighed as betterPlace
 * weighs two places: one named by its own name (as typed) against one named otherwise (a tagged
 * name, its first words) wins unless the other is MUCH_MORE_IMPORTANT; two named alike, the more
 * important, the place when they are close. A place named by its own name that is a city stays
 * (CITY_RANK: `Paraná` is the Argentine city, `Victoria` the Canadian one: people name cities far
 * more often than regions), as does one the state does not outweigh MUCH_MORE_IMPORTANT times
 * (`Münster` is the city, not the Irish province; `Bavaria` is the Land, not the village; `Freiburg`
 * is Freiburg im Breisgau, not the canton the Germans call so).
 */
function placeOutweighs(place: WeighedPlace, named: StateNaming): boolean {
  const { rank, full } = place, importance = named.state.importance;
  if (full) return rank >= CITY_RANK || importance <= rank * MUCH_MORE_IMPORTANT;
  return !named.tagged ? rank > importance * MUCH_MORE_IMPORTANT : rank >= importance;
}

/** The place the search found, as the state answer weighs it. */
interface WeighedPlace {
  /** Its rank; a postal place has no population and weighs as a town, as in betterPlace. */
  rank: number;
  /** Its name, as written in the index. */
  name: string;
  /** The words `text` are its whole name. */
  full: boolean;
}

function weighPlace(index: AddressIndex, doc: number, text: string): WeighedPlace {
  const c = index.c;
  const name = index.str(c.docCity[doc]!);
  return { rank: c.docKind[doc] === DOC_PLACE ? c.docRank[doc]! : POSTAL_PLACE_RANK, name, full: foldTokens(name).join(' ') === text };
}

/**
 * The place `doc` that outweighs the state is the answer beyond doubt: it is MUCH_MORE_IMPORTANT
 * than the state (`Tabor` the Czech city, not the Slovenian municipality), or it is named by its
 * own name and the state only by a language-tagged one (`Giura`, the Romanian village, not the
 * Italians' name of the Jura), or the query's accents spell the place's name and not the state's
 * (`Münster`, not the Irish province Munster). Otherwise it is a guess between two of the name
 * (`Videm, Slovenia`: a village, or the municipality; `Victoria`: the Canadian city, or the
 * Australian state).
 */
function placeSurely(index: AddressIndex, q: ParsedQuery, place: WeighedPlace, named: StateNaming): boolean {
  if (place.rank > named.state.importance * MUCH_MORE_IMPORTANT) return true;
  if (!place.full) return false;
  if (named.tagged) return true;
  const typed = spelled(q.tokens.length === foldTokens(q.rawText).length ? q.rawText : '');
  const c = index.c;
  return typed !== '' && typed === spelled(place.name) && typed !== spelled(index.str(c.admStateName[c.docAdmin[named.state.doc]!]!));
}

/** `text` as typed, its words joined by one space: lower case, accents kept (`münster`). */
function spelled(text: string): string {
  return typedWords(text).join(' ');
}

/** `best`, its relevance lowered as a guess between homonyms (HOMONYM_GUESS, once). */
function asGuess(best: NonNullable<Choice['best']>): NonNullable<Choice['best']> {
  const had: readonly Deduction[] = 'deductions' in best ? (best as NamedPlace).deductions : [];
  return had.includes(HOMONYM_GUESS) ? best : { ...best, deductions: [...had, HOMONYM_GUESS] } as NonNullable<Choice['best']>;
}

/** A state's code as written after its name: its ISO 3166-2 code's second part, folded (`DE-BY` → `by`). */
function codeOf(state: State): string {
  return state.code.slice(state.code.indexOf('-') + 1).toLowerCase();
}

/** The states the words `text` name, in `country` when given, the most important first; undefined when none. */
function statesNamed(index: AddressIndex, text: string, country: string): StateNaming[] | undefined {
  const list = statesCalled(stateTable(index), text);
  if (!list || list.length === 0) return undefined;
  // (a subdivision of one place is a town, named by its own name: Malta's local councils, whose
  // tagged names CLDR numbers otherwise than the layer does: its `Mdina` is the layer's MT-29, Lija)
  const named = list.filter((s) => (!country || s.state.country === country) && (!s.tagged || s.state.places > 1));
  if (named.length === 0) return undefined;
  return [...named].sort((a, b) => b.state.importance - a.state.importance);
}

/**
 * `q` with the words that named its country back among its words (`words`: the text, folded, in
 * order), taking one naming's weight; with no country, unless it was named `again` after them.
 */
function withCountryWords(q: ParsedQuery, words: string[], again: boolean): ParsedQuery {
  const added = words.length - q.tokens.length;
  if (added <= 0) return q;
  const tokens: QueryToken[] = [];
  let k = 0;
  for (const w of words) {
    const t = q.tokens[k];
    if (t && t.text === w) { tokens.push(t); k++; continue; }
    tokens.push({ text: w, field: 'free', alts: [w], hnLike: false, weight: COUNTRY_WEIGHT / added, seg: 0 });
  }
  const countryWeight = q.countryWeight - COUNTRY_WEIGHT;
  return again ? { ...q, tokens, countryWeight } : { ...q, tokens, country: '', countryWeight: 0, countryText: '' };
}

/** The state is named after the place `doc` that lies in it: every word of the place's name is in one of the state's names. */
function namedAfter(index: AddressIndex, doc: number, state: State): boolean {
  const words = foldTokens(index.str(index.c.docCity[doc]!));
  if (words.length === 0) return false;
  return state.names.some((name) => {
    const have = name.split(' ');
    return words.every((w) => have.includes(w));
  });
}

/** The answer for the first of the states `named`: its most important place's document, shown as the state alone. */
function stateChoice(index: AddressIndex, q: ParsedQuery, named: StateNaming[]): NamedPlace {
  const { state, tagged } = named[0]!;
  const deductions: Deduction[] = [];
  const other = named.find((n) => n.state !== state);
  if (other && !q.country && state.importance <= other.state.importance * MUCH_MORE_IMPORTANT) deductions.push(HOMONYM_GUESS);
  const n = q.tokens.length;
  const explained = perToken(n, tagged ? ALT_NAME_QUALITY : 1);
  const roles = perToken(n, ROLE_ADMIN);
  const c = index.c;
  return {
    doc: state.doc, kind: c.docKind[state.doc]!, rank: c.docRank[state.doc]!, explained, roles, nameCoverage: 0, nameTokensMatched: 0, addr: -1, hnQuality: 0, hnToken: -1,
    zipMatched: false, zipConflict: false, typo: false, score: 0, zipText: '', cityText: '', deductions, placeOnly: false, stateOnly: true,
  };
}

