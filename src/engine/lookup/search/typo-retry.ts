/**
 * Stage 8 (search, see ../index.ts), its second half: typo tolerance, only for words that nothing
 * explains. First the words the index does not hold at all (no search can explain them), then
 * those the best answer left unexplained; a second search is made only when their typo neighbours
 * could change the answer. On an index that holds no street the named place is the answer, and
 * the retry asks it instead (named-place-retry.ts).
 */
import { DOC_STREET } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import { narrowsCandidates } from '../candidates/candidates.ts';
import { strongTokens } from '../candidates/holding-all.ts';
import { shareAny } from '../candidates/sorted-lists.ts';
import { distinctiveStreetWords } from '../choose/street-words.ts';
import { freeTextPostcodeToken } from '../exact-path/exact-path.ts';
import { postingsOfMatches, typoMatches } from '../match/matches.ts';
import type { TokenMatch } from '../match/token-match.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import type { Choice } from '../record/record.ts';
import { bindingZipToken } from '../score/score.ts';
import { bestChoice } from './broad-search.ts';

/**
 * The best answer the broad search finds once the exact path has failed (`matches` gains the
 * typo neighbours it tried).
 */
export function searchWithTypoRetry(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): Choice {
  const expanded = new Set<number>();
  const typos = addTypoMatches(index, q, matches, typoWords(q, (i) => matches[i]!.length === 0), expanded);
  let choice = bestChoice(index, q, matches, typos.length > 0, true);
  const missing = typoWords(q, (i) => !expanded.has(i) && unexplained(index, q, matches, choice, i));
  const added = addTypoMatches(index, q, matches, missing, expanded);
  if (added.length > 0 && !unseenInNarrowed(index, q, matches, added) && meetRarestWord(index, q, matches, added, missing)) {
    choice = bestChoice(index, q, matches, true, true);
  }
  return choice;
}

/**
 * Whether the answer leaves query token `i` unexplained. When the answer is no street, the common
 * street words ("Allée", "des") count as explained: streets held them, and were not taken because
 * none explained a word that tells streets apart (../choose/street-words.ts); their typo neighbours would
 * only start a second search among more streets of the same kind.
 */
export function unexplained(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], choice: Choice, i: number): boolean {
  const s = choice.best;
  if (s && s.explained[i] !== 0) return false;
  if (s && s.kind === DOC_STREET) return true;
  // (in the misspelt-place pass, free text's words are asked as the city field's: misspelt-place.ts)
  const field = q.tokens[i]!.field;
  return ((distinctiveStreetWords(index, q, matches).rareOrUnknown >>> i) & 1) === 1 || (field !== 'street' && field !== 'free') || (field === 'free' && q.freeTypoPlaces === true);
}

/**
 * Whether some document holds one of the `added` typo neighbours together with the query's
 * rarest strong word (the postcode, mostly) other than the words `expanded` (whose neighbours
 * they are: a misspelt word is often the rarest, and no document holds it with its correction).
 * When none does, the neighbours of a word the first answer left unexplained are no misspelling
 * of a street there: the street is unknown, and its words' neighbours lead elsewhere ("Allée des
 * Chardonnerets" → "Rue des Allées" of another town). The first answer then stands, and the
 * second broad search is not made.
 */
function meetRarestWord(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], added: TokenMatch[], expanded: number[]): boolean {
  let rarest = -1, size = Infinity;
  for (const i of strongTokens(q, freeTextPostcodeToken(q, matches))) {
    if (expanded.includes(i)) continue;
    const n = postingsOfMatches(index, matches[i]!);
    if (n < size) { size = n; rarest = i; }
  }
  return rarest >= 0 && heldTogether(index, matches[rarest]!, added);
}

/** Whether some document holds one of the tokens `a` and one of the tokens `b`. */
function heldTogether(index: AddressIndex, a: TokenMatch[], b: TokenMatch[]): boolean {
  for (const x of a) for (const y of b) if (shareAny(index.postings(x.tok), index.postings(y.tok))) return true;
  return false;
}

/** Adds the typo neighbours of the words `which` to their matches; returns those added. */
export function addTypoMatches(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], which: number[], expanded: Set<number>): TokenMatch[] {
  const added: TokenMatch[] = [];
  for (const i of which) {
    expanded.add(i);
    const t = typoMatches(index, q.tokens[i]!.text);
    if (t.length > 0) { matches[i] = [...matches[i]!, ...t]; added.push(...t); }
  }
  return added;
}

/**
 * True when the candidates are the documents of a binding postcode and none of them holds any
 * of the `added` tokens: a second search would then count, score and choose exactly as the first.
 */
function unseenInNarrowed(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], added: TokenMatch[]): boolean {
  const zip = bindingZipToken(index, q, matches);
  return narrowsCandidates(index, matches, zip) && !heldTogether(index, matches[zip]!, added);
}

/** Words that may be typos (not a postcode, not a number, four letters or more) and pass `test`. */
export function typoWords(q: ParsedQuery, test: (i: number) => boolean): number[] {
  const out: number[] = [];
  q.tokens.forEach((t, i) => {
    if (t.field === 'zip' || t.hnLike || t.text.length < 4) return;
    if (test(i)) out.push(i);
  });
  return out;
}
