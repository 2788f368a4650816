/**
 * Stage 3 (match, see ../index.ts): what a query token matches in the index. Its own module so
 * that every stage can name it (the candidate stage and QueryBits alike) without importing
 * each other.
 */

export interface TokenMatch {
  tok: number;
  /** 1 exact, < 1 for an expansion or a typo neighbour. */
  quality: number;
  kind: 'exact' | 'expansion' | 'typo';
}

export const EXPANSION_QUALITY = 0.95;
export const TYPO_QUALITY = 0.3;
