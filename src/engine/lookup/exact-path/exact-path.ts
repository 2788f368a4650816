/**
 * Stage 4 (exact path, see ../index.ts). Its candidates are only the documents that hold every
 * strong word of the query, or every one but one (intersections of postings: a handful of
 * documents), and its choice is taken only when it provably scores above every document outside
 * them. Then scoring the whole index could not give a better answer, nor an equal one (an
 * ambiguity): the result is what scoring every document would give (which the broad search, stages
 * 5–7, approximates within its cut-offs), found from a handful of documents instead of hundreds.
 *
 * The ceiling of an outside document: each query token explained at most at the quality of the
 * token's best match (1 exact, 0.95 an expansion, 0.3 a typo neighbour; a number-like token at
 * most 1, as a house number), plus a fully covered street name and the house-number bonus; a
 * document lacking strong words loses at least their best qualities. (The free-text postcode,
 * when required, counts as a strong word: a document that does not hold it is taken not to hold
 * the query's postcode as one of its house numbers either.)
 *
 * - All strong words: the common case, an address the index holds as written.
 * - All but one: a wrong postcode (the street and the town agree without it), a typo the typo
 *   neighbours did not resolve, a word the index does not hold. An outsider lacks two.
 */
import { DOC_STREET } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import { holdingAll, intersectDocs, strongTokens } from '../candidates/holding-all.ts';
import { sortedUnique } from '../candidates/sorted-lists.ts';
import { chooseAmong } from '../choose/choose.ts';
import type { TokenMatch } from '../match/token-match.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import type { Choice } from '../record/record.ts';
import { HOUSENUMBER_FIELD_BONUS, STREET_COVERAGE_BONUS } from '../score/score.ts';

/** The one-word-dropped path is not taken when its documents are more than this. */
const DROPPED_MAX_DOCS = 512;

/** A choice among the documents holding every strong word, when no other document can match it. */
export function exactChoice(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): Choice | undefined {
  // free text: a number of a postcode's shape is most likely the postcode, and the rarest word
  // of all; required first, it narrows the intersection to the streets of that postcode. A
  // document without it lacks one word, so the proof holds for the narrower set too.
  const zip = freeTextPostcodeToken(q, matches);
  if (zip >= 0) {
    const c = provenAmong(index, q, matches, intersectDocs(index, q, matches, zip), strongTokens(q, zip), 1);
    if (c) return c;
  }
  return provenAmong(index, q, matches, intersectDocs(index, q, matches), strongTokens(q), 1);
}

/**
 * A choice among the documents that lack at most one strong word (the union of the intersections
 * of all strong words but one), when no document lacking two can match it; undefined when one of
 * those intersections is too costly or their union too large.
 */
export function oneWordDroppedChoice(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): Choice | undefined {
  const strong = strongTokens(q, freeTextPostcodeToken(q, matches));
  if (strong.length < 3) return undefined;
  const docs: number[] = [];
  for (const dropped of strong) {
    const held = holdingAll(index, matches, strong.filter((i) => i !== dropped));
    if (held === null) return undefined;
    for (const d of held) docs.push(d);
    if (docs.length > DROPPED_MAX_DOCS * 2) return undefined;
  }
  sortedUnique(docs);
  if (docs.length > DROPPED_MAX_DOCS) return undefined;
  return provenAmong(index, q, matches, docs, strong, 2);
}

/**
 * The choice among `docs`, when it is a house-number match that scores more than any document
 * lacking `lacking` of the `strong` words could.
 */
function provenAmong(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], docs: number[] | null, strong: number[], lacking: number): Choice | undefined {
  if (!docs || docs.length === 0) return undefined;
  const choice = chooseAmong(index, q, matches, docs);
  const s = choice.best;
  if (!s || s.kind !== DOC_STREET || s.addr < 0) return undefined;
  if (lacking === 1) for (let i = 0; i < q.tokens.length; i++) if (!(s.explained[i]! > 0)) return undefined;
  return s.score > outsiderCeiling(q, matches, strong, lacking) + 1e-9 ? choice : undefined;
}

/** The most a document lacking `lacking` of the `strong` words (in every matched form) can score. */
export function outsiderCeiling(q: ParsedQuery, matches: TokenMatch[][], strong: number[], lacking: number): number {
  const best = q.tokens.map((t, i) => {
    let b = t.hnLike ? 1 : 0;
    for (const m of matches[i]!) if (m.quality > b) b = m.quality;
    return Math.min(1, b) * t.weight;
  });
  let sum = 0;
  for (const b of best) sum += b;
  const lost = strong.map((i) => best[i]!).sort((a, b) => a - b);
  for (let k = 0; k < lacking && k < lost.length; k++) sum -= lost[k]!;
  return sum + STREET_COVERAGE_BONUS + (q.hnKeys.length > 0 ? HOUSENUMBER_FIELD_BONUS : 0);
}

/** A free-text number token that is a postcode candidate of the query and in the index, or -1. */
export function freeTextPostcodeToken(q: ParsedQuery, matches: TokenMatch[][]): number {
  for (let i = 0; i < q.tokens.length; i++) {
    const t = q.tokens[i]!;
    if (t.field === 'free' && t.hnLike && matches[i]!.length > 0 && q.zipCands.some((z) => z.key === t.text)) return i;
  }
  return -1;
}
