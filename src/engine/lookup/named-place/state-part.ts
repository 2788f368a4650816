/**
 * Stage 9 (named place, see ../index.ts): free text whose last part is a state's name, as people
 * write `City, State` (`Launceston, Tasmania`, `Munich, Bavaria`, `Köln, Nordrhein-Westfalen`), or
 * a county's (`Town, Province`: `Móstoles, Madrid`, `Cascina, Pisa`, `Guildford, Surrey`); or whose
 * last part ends with one, with no comma or in brackets (`Getafe Madrid`, `Montréal (Québec)`,
 * Canada's and Spain's usage), where the text's own answer leaves a word of that part unexplained;
 * and a city field that ends with one (`{"city": "Montréal (Québec)"}`, an export's city column).
 *
 * The words alone say nothing the search can use: they would stay unexplained, or name a place of
 * the same name elsewhere (`Bavaria`, a village in Italy). So the query is also asked without them,
 * with the state as its `state` field (a structured state: it ranks the places it holds first and
 * counts in the relevance, by any of its names: `Bavaria` is Bayern's), or the county as its
 * `county` field. That answer is taken when it lies in the state or county and is more relevant
 * than the text's own; otherwise the text's answer stands (`Getreidegasse 9, Salzburg`: the city
 * Salzburg explains the words as well as the Land). A part before it that holds a street (a type
 * word, a house number) leaves the text's answer alone.
 *
 * withStateWords: words no answer explains that name the answer's own state (`Sydney NSW 2000`).
 */
import type { ParsedQuery } from '../parse/parse.ts';
import type { AddressIndex } from '../../index/index.ts';
import { foldText, foldTokens } from '../normalize/normalize.ts';
import { IT_PROVINCE_CODES } from './province-codes.generated.ts';
import { ROLE_ADMIN } from '../../index/format.ts';
import type { Choice } from '../record/record.ts';
import { DEPARTEMENT, departementOf } from './departement.ts';
import { MAX_STATE_WORDS, namesState, stateKey, stateNameIn, stateTable, type StateNaming, type StateTable } from './state-table.ts';
import { isStreetWord } from './street-countries.ts';


/**
 * The state part of `q`: the query without its last part's words, or that part's last words
 * (`kept`: the tokens left, by position), and with them as its state, or as its county when they
 * name no state but a county (a province, département or county: `Móstoles, Madrid`, `Cascina,
 * Pisa`, `Guildford, Surrey`), and whether a document lies there; undefined when they name
 * neither. `explained`: the text's own answer's explained words, when it has one.
 */
export function statePart(index: AddressIndex, q: ParsedQuery, explained?: readonly number[]): StatePart | undefined {
  if (q.state.length > 0 || q.county.length > 0 || q.tokens.length < 2) return undefined;
  // a place and its state, not a street: a street's words would name a village of the street's
  // name in the state (`ulica Tadeusza Kościuszki 18, Łódź` is not the village Kościuszki in the
  // voivodeship CLDR calls Łódź); a house number rules the state part out, a type word rules out
  // an answer that leaves a kept word unexplained (StatePart.streetWords)
  if (q.hnKeys.length > 0) return undefined;
  const free = q.tokens.every((t) => t.field === 'free');
  let last = 0;
  for (const t of q.tokens) last = Math.max(last, t.seg ?? 0);
  // free text: its last part; else the city field, whose last words may be its state's as an
  // export's city column holds them (`{"city": "Montréal (Québec)"}`, `Köniz BE`), with no free text
  const inLast = free ? q.tokens.flatMap((t, i) => ((t.seg ?? 0) === last ? [i] : []))
    : q.tokens.some((t) => t.field === 'free') ? [] : q.tokens.flatMap((t, i) => (t.field === 'city' ? [i] : []));
  if (inLast.length === 0) return undefined;
  // the whole last part (`Munich, Bavaria`); else the last words of that part, as people write a
  // town and its state with no comma (`Getafe Madrid`, `Köniz (Bern)`, `Montréal (Québec)`): the
  // longest run of them that names one, a word of the part left before it; only where the text's
  // own answer, if any, leaves a word of the part unexplained (`getafe`: the capital answered for
  // `Madrid`), not where it reads the words as its own city (`013456 Bucharest`)
  if (free && last > 0) {
    const whole = partNaming(index, q, inLast, last);
    if (whole) return whole;
  }
  if (explained && !inLast.some((i) => explained[i] === 0)) return undefined;
  for (let n = Math.min(MAX_STATE_WORDS, inLast.length - 1); n >= 1; n--) {
    const found = partNaming(index, q, inLast.slice(-n), -1);
    if (found) return found;
  }
  return undefined;
}

/**
 * What statePart answers: the query asked, the tokens it kept (by position), whether a document
 * lies in the state or county, and whether a kept word is a street's (a type word: `ulica`,
 * `…straße`), so that an answer stands only where it explains every kept word.
 */
interface StatePart {
  asked: ParsedQuery;
  kept: number[];
  within: (doc: number) => boolean;
  streetWords: boolean;
}

/**
 * The query without the tokens `named` (the text's last part `part`, or the last words of a part
 * or of the city field when `part` is -1) and with them as its state or county; undefined when
 * they name neither, or a word kept is a house number's.
 */
function partNaming(index: AddressIndex, q: ParsedQuery, named: readonly number[], part: number): StatePart | undefined {
  const words = named.map((i) => q.tokens[i]!.text);
  const kept = q.tokens.flatMap((_, i) => (named.includes(i) ? [] : [i]));
  const weight = named.reduce((w, i) => w + q.tokens[i]!.weight, 0);
  if (words.length > MAX_STATE_WORDS || q.zipCands.some((z) => words.includes(z.key))) return undefined;
  if (kept.some((i) => q.tokens[i]!.hnLike)) return undefined;
  const table = stateTable(index);
  let text = words.join(' ');
  let country = q.country;
  let found = calledIn(table, text, country) ?? (part > 0 ? eitherLanguage(table, q, part, country) : eitherSide(table, q, words, country));
  if (!found && q.countryText && !q.countryNameOnly) {
    // the words that named a country end the state's name (`New South Wales`, `British Columbia`):
    // they name no country
    const whole = `${text} ${q.countryText}`;
    if (foldTokens(q.rawText).join(' ').endsWith(whole)) {
      text = whole;
      country = '';
      found = calledIn(table, text, country);
    }
  }
  if (found) text = found.text;
  const states = found?.named;
  const c = index.c;
  let within: (doc: number) => boolean;
  if (states && states.length > 0) {
    const codes = new Set(states.map((n) => n.state.code));
    within = (doc) => codes.has(index.str(c.admStateCode[c.docAdmin[doc]!]!));
  } else if (table.counties.has(text)) {
    within = (doc) => stateKey(index.str(c.admCounty[c.docAdmin[doc]!]!)) === text;
  } else return undefined;
  // (as a structured state or county weighs: half a word, ../parse/parse.ts)
  const dropped = country === q.country ? 0 : q.countryWeight;
  const asked: ParsedQuery = {
    ...q, tokens: kept.map((i) => q.tokens[i]!), totalWeight: q.totalWeight - weight - dropped + 0.5,
    ...(states && states.length > 0 ? { state: [text] } : { county: [text] }),
    ...(dropped > 0 ? { country: '', countryWeight: 0, countryText: '' } : {}),
  };
  return { asked, kept, within, streetWords: kept.some((i) => isStreetWord(q.tokens[i]!.text)) };
}

/**
 * `choice` with the words that name its answer's state explained (ROLE_ADMIN): a run of words
 * nothing else explains that is the answer's state by one of its names or its abbreviation, or both
 * (`Sydney NSW 2000`, `Vancouver BC`, `Vancouver, B.C.`, `Lausanne VD`, `München Bayern`,
 * `Launceston, Tasmania TAS`), or in Italy its province's sigla (`53100 Siena SI`, `Milano (MI)`:
 * province-codes.generated.ts), and ends its part of the text, or the city field (`{"city":
 * "Köniz BE"}`), but for explained words and numbers (not the first word of `3 Msida Sea Front,
 * Msida`); in France the département's number (`Lyon 69`, `Mende (48)`), the answer's postcode's. The choice is the same; only what its relevance counts
 * changes. `choice` itself when no such words are left.
 */
export function withStateWords(index: AddressIndex, q: ParsedQuery, choice: Choice): Choice {
  const best = choice.best;
  if (!best || best.explained.every((x) => x > 0)) return choice;
  const c = index.c, a = c.docAdmin[best.doc]!;
  // (read only once a run of unexplained words is found: most answers leave none)
  let code: string | undefined, abbr = '', sigla = '';
  let explained: number[] | undefined, roles: number[] | undefined;
  const n = q.tokens.length;
  for (let i = 0; i < n; i++) {
    if (best.explained[i]! > 0) continue;
    let j = i;
    const field = q.tokens[i]!.field;
    while (j < n && best.explained[j] === 0 && (field === 'free' || field === 'city') && q.tokens[j]!.field === field && !/^\d/.test(q.tokens[j]!.text)) j++;
    // a run of such words that ends its part of the text but for explained words and numbers; its
    // longest tail that names the state
    if (j === i || !endsPart(q, best.explained, j)) { i = Math.max(i, j - 1); continue; }
    if (code === undefined) {
      code = index.str(c.admStateCode[a]!);
      abbr = stateKey(index.str(c.admState[a]!));
      sigla = code.startsWith('IT-') ? IT_PROVINCE_CODES[foldText(index.str(c.admCounty[a]!))] ?? '' : '';
    }
    const isCode = (w: string) => w === abbr || w === sigla;
    for (let s = Math.max(i, j - MAX_STATE_WORDS - 1); s < j; s++) {
      const words = q.tokens.slice(s, j).map((t) => t.text);
      const text = words.join(' ');
      // (its name and its code after it: `Launceston, Tasmania TAS`)
      const namedCoded = words.length > 1 && isCode(words[words.length - 1]!) && namesState(index, words.slice(0, -1).join(' '), code);
      // (its code written with dots, one letter a word: `Vancouver, B.C.`, `Sydney N.S.W.`)
      const dotted = words.length > 1 && words.every((w) => w.length === 1) && isCode(words.join(''));
      if (!isCode(text) && !namesState(index, text, code) && !namedCoded && !dotted) continue;
      explained ??= best.explained.slice();
      roles ??= best.roles.slice();
      for (let m = s; m < j; m++) { explained[m] = 1; roles[m] = ROLE_ADMIN; }
      break;
    }
    i = j - 1;
  }
  // France's département number right after the town (`Lyon 69`, `Mende (48)`): the answer's own
  // (not a house number after a street the answer does not explain: `Avenue de Fareyres 12`)
  const dep = best.explained.some((x, i) => x === 0 && DEPARTEMENT.test(q.tokens[i]!.text)) ? departementOf(index.str(c.docPostcode[best.doc]!), index.str(c.docCountry[best.doc]!)) : [];
  for (let i = 1; i < n && dep.length > 0; i++) {
    if (best.explained[i]! > 0 || best.explained[i - 1] === 0 || q.tokens[i - 1]!.seg !== q.tokens[i]!.seg) continue;
    if (!dep.includes(q.tokens[i]!.text) || !endsPart(q, explained ?? best.explained, i + 1)) continue;
    explained ??= best.explained.slice();
    roles ??= best.roles.slice();
    explained[i] = 1; roles[i] = ROLE_ADMIN;
  }
  return explained ? { ...choice, best: { ...best, explained, roles: roles! } } : choice;
}

/**
 * The states `text` names (in `country` when given; stateNameIn: with or without a type word),
 * with the name that named them (`canton de vaud` → `vaud`); undefined when none.
 */
function calledIn(table: StateTable, text: string, country: string): { text: string; named: StateNaming[] } | undefined {
  const name = stateNameIn(table, text);
  const named = table.byName.get(name)?.filter((n) => !country || n.state.country === country);
  return named && named.length > 0 ? { text: name, named } : undefined;
}

/**
 * A part that writes the state's name in two languages, `Пловдив / Plovdiv` (GeoNames' form for
 * Bulgaria; `Bozen / Bolzano`), as the data's names do (state-table.ts, splitLocal): the state one
 * side names, when no side names another.
 */
function eitherLanguage(table: StateTable, q: ParsedQuery, part: number, country: string): { text: string; named: StateNaming[] } | undefined {
  const raw = q.rawText.split(/[,;\n]/)[part];
  if (!raw || !raw.includes('/')) return undefined;
  return oneState(table, raw.split('/').map(stateKey).filter(Boolean), country);
}

/**
 * Words within a part that write the state's name in two languages, as eitherLanguage reads a
 * whole part (`Асеновград Пловдив / Plovdiv`): the state one side of a split of the words names,
 * when the other names no other and the text has a slash.
 */
function eitherSide(table: StateTable, q: ParsedQuery, words: readonly string[], country: string): { text: string; named: StateNaming[] } | undefined {
  if (!q.rawText.includes('/')) return undefined;
  for (let k = 1; k < words.length; k++) {
    const found = oneState(table, [words.slice(0, k).join(' '), words.slice(k).join(' ')], country);
    if (found) return found;
  }
  return undefined;
}

/** The states the first of `sides` that names some names (calledIn), when every other side names none or the same. */
function oneState(table: StateTable, sides: readonly string[], country: string): { text: string; named: StateNaming[] } | undefined {
  let found: { text: string; named: StateNaming[] } | undefined;
  for (const side of sides) {
    const named = calledIn(table, side, country);
    if (!named) continue;
    if (found && !named.named.every((n) => found!.named.some((m) => m.state === n.state))) return undefined;
    found ??= named;
  }
  return found;
}

/** Every token from `k` to the end of its part of the text or its field (token k-1's) is explained or a number. */
function endsPart(q: ParsedQuery, explained: readonly number[], k: number): boolean {
  const seg = q.tokens[k - 1]!.seg ?? 0, field = q.tokens[k - 1]!.field;
  for (let m = k; m < q.tokens.length && (q.tokens[m]!.seg ?? 0) === seg && q.tokens[m]!.field === field; m++) {
    if (explained[m] === 0 && !/^\d/.test(q.tokens[m]!.text)) return false;
  }
  return true;
}
