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
import { betterPlace, byBetterPlace, sortedPlaces } from '../../../../src/engine/lookup/named-place/place-order.ts';

/** `count` random place hits on a made-up index of 40 documents, drawn from small value sets. */
function randomHits(seed: number, count: number): { index: AddressIndex; hits: PlaceHit[] } {
  const rnd = mulberry32(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const docs = 40;
    const docRank = new Float64Array(docs), docKind = new Uint8Array(docs);
    for (let d = 0; d < docs; d++) {
      docRank[d] = pick([0, 0, 500, 5_000, 80_000, 2_000_000]);
      docKind[d] = pick([DOC_PLACE, DOC_POSTCODE]);
    }
    const index = { c: { docRank, docKind } } as unknown as AddressIndex;
    const hits: PlaceHit[] = [];
    for (let i = 0; i < count; i++) {
      const full = rnd() < 0.5;
      hits.push({
        doc: Math.floor(rnd() * docs), country: pick(['FR', 'FR', 'DE', 'AT']), tokens: pick([[0], [1], [0, 1]]),
        quality: pick([0.8, 0.9, 1]), full, pos: pick([0, 1]), seg: pick([0, 0, 1]), typo: rnd() < 0.2, weak: !full,
        alt: !full && rnd() < 0.3, reason: rnd() < 0.5, inState: rnd() < 0.2, marks: full ? pick([-1, 0, 1]) : 0,
      });
    }
  return { index, hits };
}

describe('byBetterPlace', () => {
  it('answers for every pair what betterPlace answers both ways', () => {
    const { index, hits } = randomHits(20, 400);
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

/** Whether `cmp` orders `hits` consistently (a weak order: a ≤ b ≤ c gives a ≤ c), the case a sort has one answer for. */
function weakOrder(hits: readonly PlaceHit[], cmp: (a: PlaceHit, b: PlaceHit) => number): boolean {
  for (const a of hits) for (const b of hits) if (cmp(a, b) <= 0) for (const c of hits) if (cmp(b, c) <= 0 && cmp(a, c) > 0) return false;
  return true;
}

describe('sortedPlaces', () => {
  it("answers a stable sort's order: alike places in their own order, merged where kinds tie", () => {
    let checked = 0;
    for (let seed = 1; seed <= 600; seed++) {
      // many alike places (a city's postal places) among few documents, as for Paris
      const { index, hits } = randomHits(seed, 10 + (seed % 50));
      const few = hits.map((h) => ({ ...h, doc: h.doc % 6, tokens: [0], seg: 0, pos: 0, inState: false }));
      for (const hint of [undefined, new Set(['FR'])]) {
        const order = byBetterPlace(index, hint);
        const got = sortedPlaces(index, [...few], hint);
        expect(new Set(got)).toEqual(new Set(few));
        // (random ranks and kinds often weigh three places in a circle; a sort then has no one answer)
        if (!weakOrder(few, order)) continue;
        const want = [...few].sort(order);
        if (got.some((h, i) => h !== want[i])) expect.fail(`seed ${seed}: order differs`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('sorts the places themselves when they are all distinct or of too many kinds', () => {
    const { index, hits } = randomHits(7, 400);
    expect(sortedPlaces(index, [...hits])).toEqual([...hits].sort(byBetterPlace(index)));
  });
});
