/**
 * Stage 8 (search, see ../index.ts), its first half: the broad search (candidates → score →
 * choose, stages 5–7) and the best choice for the current matches, the exact path's proof
 * (stage 4) first where it holds.
 */
import type { AddressIndex } from '../../index/index.ts';
import { candidateDocs } from '../candidates/candidates.ts';
import { chooseAmong } from '../choose/choose.ts';
import { exactChoice, freeTextPostcodeToken, oneWordDroppedChoice } from '../exact-path/exact-path.ts';
import type { TokenMatch } from '../match/token-match.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import type { Choice } from '../record/record.ts';
import { bindingZipToken, postcodeAgrees } from '../score/score.ts';

/**
 * The best-scoring answer for the current matches: proven from the few documents that hold all
 * strong words (`exact`: typo neighbours were added since the exact path failed) or all but one
 * (`dropped`) where possible (stage 4, ../exact-path/exact-path.ts), else by the broad search.
 */
export function bestChoice(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], exact: boolean, dropped: boolean): Choice {
  return (exact ? exactChoice(index, q, matches) : undefined)
    ?? (dropped ? oneWordDroppedChoice(index, q, matches) : undefined)
    ?? broadSearch(index, q, matches);
}

/** The broad search: the candidate documents (stage 5), scored (stage 6) and chosen among (stage 7). */
export function broadSearch(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][], streetOverGeneral = false): Choice {
  return chooseAmong(index, q, matches, candidateDocs(index, matches, bindingZipToken(index, q, matches), placeWordMask(index, q, matches), numberWordMask(q, matches)), streetOverGeneral);
}

/**
 * The query tokens that name the town, counted further by the candidate stage: the city and
 * district fields; in free text of several comma-separated parts, the words of the last part
 * when the text's postcode does not agree with them (`…, 12630 Digne-les-Bains`: a wrong
 * postcode leaves the town's name as the way to the street). With an agreeing postcode the
 * postcode already leads there, and counting the town's words would only cost time.
 */
function placeWordMask(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): number {
  let mask = placeWordMasks.get(q);
  if (mask === undefined) placeWordMasks.set(q, (mask = placeWordMaskOf(index, q, matches)));
  return mask;
}

/** The query's number-like tokens that are not its free-text postcode (house numbers, mostly). */
function numberWordMask(q: ParsedQuery, matches: TokenMatch[][]): number {
  const zip = freeTextPostcodeToken(q, matches);
  let mask = 0;
  q.tokens.forEach((t, i) => { if (t.hnLike && i !== zip && i < 32) mask |= 1 << i; });
  return mask >>> 0;
}

/** Per query (typo matches, added later, play no part in it). */
const placeWordMasks = new WeakMap<ParsedQuery, number>();

function placeWordMaskOf(index: AddressIndex, q: ParsedQuery, matches: TokenMatch[][]): number {
  let mask = 0;
  q.tokens.forEach((t, i) => { if ((t.field === 'city' || t.field === 'district') && i < 32) mask |= 1 << i; });
  let lastSeg = 0;
  for (const t of q.tokens) if (t.field === 'free' && (t.seg ?? 0) > lastSeg) lastSeg = t.seg ?? 0;
  if (lastSeg === 0) return mask >>> 0;
  const zip = freeTextPostcodeToken(q, matches);
  if (zip < 0) return mask >>> 0;
  const town: number[] = [];
  q.tokens.forEach((t, i) => { if (t.field === 'free' && t.seg === lastSeg && !t.hnLike && i < 32) town.push(i); });
  if (town.length === 0 || postcodeAgrees(index, q, matches, zip, town)) return mask >>> 0;
  for (const i of town) mask |= 1 << i;
  return mask >>> 0;
}
