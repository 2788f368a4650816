/**
 * Stage 9 (named place, see ../index.ts): which places free text names only by its street's words,
 * in a query that writes the street and then the town in one part, without a comma.
 */
import { expansions } from '../normalize/abbreviations.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import { CITY_WORD } from './name-words.ts';
import { isPostcodeCandidate, type PlaceHit } from './place-hits.ts';
import { isStreetWord } from './street-countries.ts';

/**
 * Token `i` is a street type word (`rue`, `via`, `strasse`), or an abbreviation of one right after
 * a house number (`20 bd`, `12 av`): alone, a two-letter abbreviation is as often another word
 * (`St. Paul's Bay`, `Pays de la Loire`: `st` street, `la` lane).
 */
function typeWord(q: ParsedQuery, i: number): boolean {
  const t = q.tokens[i]!;
  if (isStreetWord(t.text)) return true;
  const before = q.tokens[i - 1];
  return before !== undefined && before.seg === t.seg && /^\d/.test(before.text) && expansions(t.text, null).some(isStreetWord);
}

/**
 * Free text in one part that writes its street before its town without a comma ("10 rue
 * Saint-Honoré Paris", "Via San Marco 3 Milano", "Sankt-Peter-Straße 5 München", "Im Sand 44
 * Triesen"): a place named only by the words right after a street type word, or right before one
 * (or by words that start or end with one: "Calle San …", "Baker Street"), or right before a house
 * number, is the street's name when another place, named without a misspelling, stands after the
 * street, or when it lies in a country the street's words and letters rule out (`hint`). Such a
 * place is not the answer (without this, "Saint-Honoré", a village, was; and "Saint-Martin", a
 * name of places in several countries, left no answer at all).
 */
export function withoutStreetNames(q: ParsedQuery, places: PlaceHit[], hint: ReadonlySet<string>): PlaceHit[] {
  // (asked per query, and cheap for the hits of a part that holds no street: a common word hits
  // hundreds of places)
  const street = streetMarks(q);
  if (!street) return places;
  let named: PlaceHit[] | undefined;
  let ends: number[] | undefined;
  for (const p of places) {
    const end = street.segs.has(p.seg) ? streetEndAt(q, street, p) : -1;
    if (end < 0) continue;
    (named ??= []).push(p);
    (ends ??= []).push(end);
  }
  if (!named) return places;
  // a town after the street: the place that starts latest in the query, of those that may be a
  // town (not misspelt, not a designation alone: "North Vancouver City" is not City, AU)
  let latest = -1;
  for (const r of places) {
    if (r.typo) continue;
    let first = Infinity, designation = true;
    for (const i of r.tokens) {
      if (i < first) first = i;
      if (q.tokens[i]!.text !== CITY_WORD) designation = false;
    }
    if (!designation && first > latest) latest = first;
  }
  // and, town or not, one in a country the query's street words and letters rule out, in a part
  // with a house number (`58a Triq il-Wilga Paceville`: not Wilga, PL, where no street is a
  // `Triq`; without a number the words may be a place's own: `Bundaberg East`, whose `east` the
  // street-word table ties to Vancouver's streets); a country the query names decides, not the
  // words (`…, Izola, Slovenia` with its `ulica`)
  const ruledOut = (p: PlaceHit) => !q.country && hint.size > 0 && !hint.has(p.country) && q.tokens.some((t) => t.hnLike && t.seg === p.seg);
  const dropped = new Set(named.filter((p, k) => latest > ends![k]! || ruledOut(p)));
  return dropped.size === 0 ? places : places.filter((p) => !dropped.has(p));
}

/** Per token of free text, where a street that holds it ends (each -1 where none). */
interface StreetMarks {
  /** A street type word stands at or before the token, only words between ("rue de la"): the street goes on through it. */
  typeBefore: boolean[];
  /** The street type word at or after the token, only words between ("Sankt Peter Straße"). */
  typeAfter: number[];
  /** A house number follows the token ("Im Sand 44"). */
  numberAfter: boolean[];
  /** The parts (`seg`) that hold a street so marked. */
  segs: Set<number>;
}

/** The query's street marks; undefined when its free text has no street type word and no house number. */
function streetMarks(q: ParsedQuery): StreetMarks | undefined {
  const toks = q.tokens;
  const n = toks.length;
  const word = (i: number) => toks[i]!.field === 'free' && !/^\d/.test(toks[i]!.text);
  const together = (i: number, j: number) => toks[j]!.field === 'free' && toks[j]!.seg === toks[i]!.seg;
  const typeBefore: boolean[] = new Array(n).fill(false);
  const typeAfter: number[] = new Array(n).fill(-1);
  const numberAfter: boolean[] = new Array(n).fill(false);
  const segs = new Set<number>();
  for (let i = 0; i < n; i++) {
    if (!word(i)) continue;
    typeBefore[i] = typeWord(q, i) || (i > 0 && word(i - 1) && together(i, i - 1) && typeBefore[i - 1]!);
    numberAfter[i] = i + 1 < n && together(i, i + 1) && houseNumber(q, i + 1);
    if (typeBefore[i] || numberAfter[i]) segs.add(toks[i]!.seg ?? 0);
  }
  if (segs.size === 0) return undefined;
  for (let i = n - 1; i >= 0; i--) {
    if (!word(i)) continue;
    typeAfter[i] = typeWord(q, i) ? i : i + 1 < n && word(i + 1) && together(i, i + 1) ? typeAfter[i + 1]! : -1;
  }
  return { typeBefore, typeAfter, numberAfter, segs };
}

/**
 * Where the street ends whose words alone name place `p` (the last token of the street), or -1:
 * its words follow a street type word (`rue de la`), come before one or start or end with one
 * ("Calle (San Xulian)", "Baker Street"), or come right before a house number ("Im Sand 44
 * Triesen", "Am Rain 8 Bindlach": Sand and Rain are towns too; a postcode is no house number).
 */
function streetEndAt(q: ParsedQuery, m: StreetMarks, p: PlaceHit): number {
  let first = Infinity, last = -1;
  for (const i of p.tokens) {
    const t = q.tokens[i]!;
    if (t.field !== 'free' || t.seg !== p.seg) return -1;
    if (i < first) first = i;
    if (i > last) last = i;
  }
  if (m.typeBefore[first]) return last;
  if (m.typeAfter[last]! >= 0) return m.typeAfter[last]!;
  return m.numberAfter[last] ? last + 1 : -1;
}

/** Token `i` is a house number of free text (a number that is no postcode candidate). */
function houseNumber(q: ParsedQuery, i: number): boolean {
  const t = q.tokens[i]!;
  return t.field === 'free' && t.hnLike && !isPostcodeCandidate(q, t.text);
}

