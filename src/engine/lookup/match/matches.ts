/**
 * Stage 3 (match, see ../index.ts): query tokens resolved to index tokens: their exact forms and
 * abbreviation expansions for every token; typo neighbours (symmetric delete, distance 1,
 * verified with Damerau-Levenshtein) only when asked, for tokens the exact pass left
 * unexplained (stage 8), so the common path stays fast.
 */
import type { AddressIndex } from '../../index/index.ts';
import { editDistance } from '../normalize/normalize.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import { EXPANSION_QUALITY, TYPO_QUALITY, type TokenMatch } from './token-match.ts';

const FUZZY_MIN_LEN = 4;

export function exactMatches(index: AddressIndex, q: ParsedQuery): TokenMatch[][] {
  return q.tokens.map((t) => {
    const out: TokenMatch[] = [];
    t.alts.forEach((a, i) => {
      const id = index.tokenId(a);
      if (id >= 0 && !out.some((m) => m.tok === id)) {
        out.push({ tok: id, quality: i === 0 ? 1 : EXPANSION_QUALITY, kind: i === 0 ? 'exact' : 'expansion' });
      }
    });
    return out;
  });
}

/** Whether typo neighbours are looked for for a folded token: FUZZY_MIN_LEN letters or more, not a number. */
export function mayBeMisspelt(text: string): boolean {
  return text.length >= FUZZY_MIN_LEN && !/^\d+$/.test(text);
}

/** Distance-1 neighbours of a folded token that have postings. */
export function typoMatches(index: AddressIndex, text: string): TokenMatch[] {
  if (!mayBeMisspelt(text)) return [];
  const cands = new Set<number>();
  index.deleteNeighbours(text, cands);
  for (let k = 0; k < text.length; k++) index.deleteNeighbours(text.slice(0, k) + text.slice(k + 1), cands);
  const out: TokenMatch[] = [];
  for (const id of cands) {
    if (index.postingCount(id) === 0) continue;
    const s = index.tokenText(id);
    if (s !== text && editDistance(s, text, 1) <= 1) out.push({ tok: id, quality: TYPO_QUALITY, kind: 'typo' });
  }
  return out;
}

/** How many postings a query token's matches have together (a document may be counted twice). */
export function postingsOfMatches(index: AddressIndex, ms: TokenMatch[]): number {
  let n = 0;
  for (const m of ms) n += index.postingCount(m.tok);
  return n;
}
