/**
 * Tokens: once every document is known, the token table is ordered by hash, and the postings and
 * the symmetric-delete keys are built (build/token-table).
 */
import type { BuildProgress } from '../progress.ts';
import type { TokenTable } from '../token-table.ts';
import type { Documents } from './documents.ts';

export type TokenColumns = ReturnType<TokenTable['finish']>;

export function finishTokens(docs: Documents, pr: BuildProgress): TokenColumns {
  const { D, T } = docs;
  pr.phase('tokens');
  const nDocs = D.count;
  const docTokStart = new Uint32Array(nDocs + 1);
  docTokStart.set(D.tokStart.view());
  docTokStart[nDocs] = T.docTok.n;
  return T.finish(nDocs, docTokStart);
}
