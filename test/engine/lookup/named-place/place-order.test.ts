/**
 * The sort of place hits (named-place.ts) by `byBetterPlace` (place-order.ts): its shortcut for places that stand
 * alike must answer exactly what weighing them both ways with betterPlace answers, for every pair,
 * or the sort (and the answer) could change. Checked on many random hits drawn from small value
 * sets, so that ties in every field are common.
 */
import { describe, expect, it } from 'vitest';
import { DOC_PLACE, DOC_POSTCODE } from '../../../../src/engine/index/format.ts';
import type { AddressIndex } from '../../../../src/engine/index/index.ts';
import { mulberry32 } from '../../../../eval/support/prng.ts';
import type { PlaceHit } from '../../../../src/engine/lookup/named-place/place-hits.ts';
import { betterPlace, byBetterPlace } from '../../../../src/engine/lookup/named-place/place-order.ts';

describe('byBetterPlace', () => {
  it('answers for every pair what betterPlace answers both ways', () => {
    const rnd = mulberry32(20);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const docs = 40;
    const docRank = new Float64Array(docs), docKind = new Uint8Array(docs);
    for (let d = 0; d < docs; d++) {
      docRank[d] = pick([0, 0, 500, 5_000, 80_000, 2_000_000]);
      docKind[d] = pick([DOC_PLACE, DOC_POSTCODE]);
    }
    const index = { c: { docRank, docKind } } as unknown as AddressIndex;
    const hits: PlaceHit[] = [];
    for (let i = 0; i < 400; i++) {
      const full = rnd() < 0.5;
      hits.push({
        doc: Math.floor(rnd() * docs), country: pick(['FR', 'FR', 'DE', 'AT']), tokens: pick([[0], [1], [0, 1]]),
        quality: pick([0.8, 0.9, 1]), full, pos: pick([0, 1]), seg: pick([0, 0, 1]), typo: rnd() < 0.2, weak: !full,
        alt: !full && rnd() < 0.3, reason: rnd() < 0.5, inState: rnd() < 0.2, marks: full ? pick([-1, 0, 1]) : 0,
      });
    }
    let ties = 0;
    for (const hint of [undefined, new Set<string>(), new Set(['FR']), new Set(['DE', 'AT'])]) {
      for (const wordHint of [hint, new Set(['AT'])]) {
        const fast = byBetterPlace(index, hint, wordHint);
        const slow = (a: PlaceHit, b: PlaceHit) => (betterPlace(index, a, b, hint, '', wordHint) ? -1 : betterPlace(index, b, a, hint, '', wordHint) ? 1 : 0);
        for (const a of hits) {
          for (const b of hits) {
            const want = slow(a, b);
            if (want === 0 && a !== b) ties++;
            if (fast(a, b) !== want) expect.fail(`byBetterPlace(${JSON.stringify(a)}, ${JSON.stringify(b)}) ≠ ${want}`);
          }
        }
      }
    }
    // the draw made many ties between distinct hits, the case the shortcut answers
    expect(ties).toBeGreaterThan(1_000);
  });
});
