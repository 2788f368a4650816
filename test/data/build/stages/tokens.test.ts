/** The build stage tokens: every document's tokens into a hash-ordered table with postings. */
import { describe, expect, it } from 'vitest';
import { AdminIndex } from '../../../../src/data/build/admin-index.ts';
import { StringInterner } from '../../../../src/data/build/interner.ts';
import { Documents } from '../../../../src/data/build/stages/documents.ts';
import { finishTokens } from '../../../../src/data/build/stages/tokens.ts';
import { StringKeys } from '../../../../src/data/build/string-keys.ts';
import { DOC_PLACE, ROLE_CITY, ROLE_NAME } from '../../../../src/engine/index/format.ts';
import { recorder } from './rows.ts';

describe('tokens', () => {
  it('orders the tokens by hash and lists each token\'s documents', () => {
    const S = new StringInterner();
    const docs = new Documents(S, new StringKeys(S), new AdminIndex([], []));
    const { D, T } = docs;
    const words = [['vaduz', 'stadtle'], ['schaan'], ['vaduz']];
    words.forEach((ws, i) => {
      const d = D.begin(DOC_PLACE, 0, 0, 0, 0);
      D.tokStart.a[d] = T.beginDoc(d);
      for (const w of ws) T.add(S.intern(w), i === 0 && w === 'stadtle' ? ROLE_NAME : ROLE_CITY);
      D.tokCount.a[d] = T.docTok.n - D.tokStart.a[d]!;
    });
    const pr = recorder();
    const tk = finishTokens(docs, pr);
    expect(pr.phases).toEqual(['tokens']);
    expect(tk.tokHash.length).toBe(3);
    expect([...tk.tokHash]).toEqual([...tk.tokHash].sort((a, b) => a - b));
    const docsOf = (w: string) => {
      const t = [...tk.tokStr].findIndex((id) => S.str(id) === w);
      return [...tk.postings.subarray(tk.tokPostStart[t]!, tk.tokPostStart[t]! + tk.tokPostCount[t]!)];
    };
    expect(docsOf('vaduz')).toEqual([0, 2]);
    expect(docsOf('schaan')).toEqual([1]);
    // document 0's tokens in the final ids, with their roles
    expect([...tk.docTok.subarray(0, 2)].map((t) => S.str(tk.tokStr[t]!))).toEqual(['vaduz', 'stadtle']);
    expect([...tk.docTokRole.subarray(0, 2)]).toEqual([ROLE_CITY, ROLE_NAME]);
    // "stadtle" (7 letters) has symmetric-delete keys, "vaduz" too
    expect(tk.delHash.length).toBeGreaterThan(0);
  });
});
