/**
 * Stage 9 (named place, see ../index.ts): the first-level subdivisions (states, regions, Länder,
 * cantons) of an index, made once per index on first use: their names (the index's own, local
 * ones, and the language-tagged ones of the pinned subdivision table: CLDR, address-formatting),
 * their importance and the place that stands for them.
 *
 * - A state's importance is the sum of its places' importance (their ranks: population, at least
 *   their type's rank, weighed by a seat of government): what the state holds, in the unit a
 *   place's own importance is measured in, so that a state and a place of the same name compare.
 * - Its point is that of its most important place: its capital where the data marks one (a seat
 *   weighs three to ten times its population), else its largest place. A point inside the state
 *   where people live, never a centre that may fall in a lake or the sea.
 */
import { DOC_PLACE } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import { foldTokens } from '../normalize/normalize.ts';
import { SUBDIVISION_CODES, SUBDIVISION_NAMES } from '../record/subdivision-names.generated.ts';

export interface State {
  /** ISO 3166-2 code (`DE-BY`). */
  code: string;
  country: string;
  /** Sum of its places' ranks. */
  importance: number;
  /** How many places it holds. */
  places: number;
  /** Its most important place document (the state answer's point and admin row). */
  doc: number;
  /** Its names, folded: local ones first, then the language-tagged ones. */
  names: string[];
}

/** A state a name names, and whether that name is a language-tagged one (not the local name). */
export interface StateNaming {
  state: State;
  tagged: boolean;
}

export interface StateTable {
  /** Folded name → the states it names (none for a state that holds no place in this index). */
  byName: Map<string, StateNaming[]>;
  /** The index's county names (provinces, départements, counties), folded. */
  counties: Set<string>;
  /** A name of several words written without its conjunction (`castilla leon`, GeoNames' `Castilla - Leon`) → the name. */
  joinless: Map<string, string>;
}

/** Longest state name looked at, in words (`Provence Alpes Cote d Azur`). */
export const MAX_STATE_WORDS = 6;

const tables = new WeakMap<AddressIndex, StateTable>();

/** The folded words `text` (a query's `state`) name the state `code` by one of its names, local or tagged (`bavaria`: DE-BY). */
export function namesState(index: AddressIndex, text: string, code: string): boolean {
  return code !== '' && (statesCalled(stateTable(index), text)?.some((n) => n.state.code === code) ?? false);
}

/**
 * The states the folded words `text` name: by one of their names, or by one with a subdivision's
 * type word before or after it that the data's names lack (typeWordsAround).
 */
export function statesCalled(table: StateTable, text: string): StateNaming[] | undefined {
  return table.byName.get(stateNameIn(table, text));
}

/** The name of the table under which `text` names its states: `text` itself, or without its type word when only that names some. */
export function stateNameIn(table: StateTable, text: string): string {
  if ((table.byName.get(text)?.length ?? 0) > 0) return text;
  return table.joinless.get(text) ?? typeWordsAround(text) ?? text;
}

/** The words that join the parts of a state's name (`Castilla y León`, `Trentino e Alto Adige`). */
const CONJUNCTIONS = new Set(['y', 'e', 'i', 'and', 'et', 'und']);

/** Every name of `byName` that has a conjunction, keyed by its words without it (a key two names share keys neither). */
function joinlessNames(byName: ReadonlyMap<string, StateNaming[]>): Map<string, string> {
  const out = new Map<string, string>();
  const shared = new Set<string>();
  for (const [name, list] of byName) {
    if (list.length === 0) continue;
    const w = name.split(' ');
    if (!w.some((x) => CONJUNCTIONS.has(x))) continue;
    const key = w.filter((x) => !CONJUNCTIONS.has(x)).join(' ');
    if (byName.has(key) || key.split(' ').length < 2) continue;
    if (out.has(key) && out.get(key) !== name) shared.add(key);
    out.set(key, name);
  }
  for (const k of shared) out.delete(k);
  return out;
}

/**
 * Words that name a subdivision's type, which people and some sources (GeoNames' postal files)
 * write before or after its name where the names in the data have none: `Kanton Zürich`, `Canton
 * de Vaud`, `Cantone Ticino`, `Region Nordjylland`, `Łódź Voivodeship`, `Nunavut Territory`,
 * `State of Bahia`, `Province of Rome`; and the official forms, of one type word or several
 * (`Comunidad Foral de Navarra`, `Principado de Asturias`, `Estado de São Paulo`, `Freistaat
 * Bayern`, `Provincia autonoma di Trento`). (Type words the data's own names share are read from
 * them: withoutTypeWords.)
 */
const TYPE_WORDS = new Set([
  'kanton', 'canton', 'cantone', 'region', 'regione', 'voivodeship', 'territory', 'province', 'provincia', 'state', 'land',
  'comunidad', 'foral', 'autonoma', 'principado', 'estado', 'freistaat', 'bundesland',
]);
/** What joins a leading type word to the name (`Canton de Vaud`, `State of Bahia`, `Estado do Rio de Janeiro`). */
const JOINING_WORDS = new Set(['de', 'du', 'des', 'd', 'di', 'del', 'della', 'of', 'the', 'do', 'da']);

/** `text` without its leading type words (and their joining words) or a trailing one; undefined when it has neither, or is only that. */
export function typeWordsAround(text: string): string | undefined {
  const w = text.split(' ');
  let from = 0, to = w.length;
  if (TYPE_WORDS.has(w[0]!)) {
    while (from < to && TYPE_WORDS.has(w[from]!)) from++;
    while (from < to && JOINING_WORDS.has(w[from]!)) from++;
  } else if (TYPE_WORDS.has(w[to - 1]!)) to--;
  return from === 0 && to === w.length || from >= to ? undefined : w.slice(from, to).join(' ');
}

/** `name` folded as query tokens join (`Île-de-France` → `ile de france`), '' when it has no words. */
export function stateKey(name: string): string {
  return foldTokens(name).join(' ');
}

export function stateTable(index: AddressIndex): StateTable {
  let t = tables.get(index);
  if (!t) tables.set(index, (t = buildTable(index)));
  return t;
}

function buildTable(index: AddressIndex): StateTable {
  const c = index.c;
  const byCode = new Map<string, State>();
  const localNames = new Map<string, Set<string>>();
  const byName = new Map<string, StateNaming[]>();
  const name = (key: string) => {
    let l = byName.get(key);
    if (!l) byName.set(key, (l = []));
    return l;
  };
  // the local names of every admin row (a name with both languages, `Valais/Wallis`, also by each)
  for (let a = 0; a < c.admStateName.length; a++) {
    const code = index.str(c.admStateCode[a]!);
    for (const part of splitLocal(index.str(c.admStateName[a]!))) {
      const key = stateKey(part);
      if (!key) continue;
      name(key);
      if (!code) continue;
      let s = localNames.get(code);
      if (!s) localNames.set(code, (s = new Set()));
      s.add(key);
    }
  }
  withoutTypeWords(localNames);
  // importance and point: one pass over the place documents (each admin row's code read once)
  const codeOf: string[] = [];
  for (let a = 0; a < c.admStateCode.length; a++) codeOf.push(index.str(c.admStateCode[a]!));
  for (let d = 0; d < c.docKind.length; d++) {
    if (c.docKind[d] !== DOC_PLACE) continue;
    const code = codeOf[c.docAdmin[d]!]!;
    if (!code) continue;
    let s = byCode.get(code);
    if (!s) byCode.set(code, (s = { code, country: index.str(c.docCountry[d]!), importance: 0, places: 0, doc: d, names: [...(localNames.get(code) ?? [])] }));
    s.importance += c.docRank[d]!;
    s.places++;
    if (c.docRank[d]! > c.docRank[s.doc]!) s.doc = d;
  }
  for (const s of byCode.values()) for (const key of s.names) name(key).push({ state: s, tagged: false });
  // the language-tagged names
  const codes = SUBDIVISION_CODES.split(' ');
  for (const packed of Object.values(SUBDIVISION_NAMES)) {
    const names = packed.split('|');
    for (let i = 0; i < names.length; i++) {
      const key = names[i] ? stateKey(names[i]!) : '';
      if (!key) continue;
      const list = name(key);
      const s = byCode.get(codes[i]!);
      if (!s || list.some((n) => n.state === s)) continue;
      list.push({ state: s, tagged: true });
      s.names.push(key);
    }
  }
  const counties = new Set<string>();
  for (let a = 0; a < c.admCounty.length; a++) {
    const key = stateKey(index.str(c.admCounty[a]!));
    if (key) counties.add(key);
  }
  return { byName, counties, joinless: joinlessNames(byName) };
}

/** A word is a country's subdivision type word when at least this share of its states' names hold it. */
const TYPE_WORD_SHARE = 0.5;
/** … and at least this many of them. */
const TYPE_WORD_MIN = 3;

/**
 * Adds to each state's local names (folded, by code) the name without its country's subdivision
 * type word, the word most of that country's state names share (`województwo`, `kraj`, `maakond`,
 * `apskritis`): people write `mazowieckie`, `Jihomoravský`, `Harju`. Read from the names
 * themselves; a state whose name is only the type word keeps its name.
 */
function withoutTypeWords(localNames: Map<string, Set<string>>): void {
  const byCountry = new Map<string, Set<string>[]>();
  for (const [code, names] of localNames) {
    const cc = code.slice(0, 2);
    let l = byCountry.get(cc);
    if (!l) byCountry.set(cc, (l = []));
    l.push(names);
  }
  for (const states of byCountry.values()) {
    const holding = new Map<string, number>();
    for (const names of states) for (const w of new Set([...names].flatMap((n) => n.split(' ')))) holding.set(w, (holding.get(w) ?? 0) + 1);
    const typeWords = new Set([...holding].filter(([, n]) => n >= TYPE_WORD_MIN && n >= states.length * TYPE_WORD_SHARE).map(([w]) => w));
    if (typeWords.size === 0) continue;
    for (const names of states) {
      for (const n of [...names]) {
        const rest = n.split(' ').filter((w) => !typeWords.has(w)).join(' ');
        if (rest && rest !== n) names.add(rest);
      }
    }
  }
}

/** A local name, and each part of one that writes two languages (`Valais/Wallis`). */
function splitLocal(name: string): string[] {
  const parts = name.split('/').map((p) => p.trim()).filter(Boolean);
  return parts.length > 1 ? [name, ...parts] : parts;
}
