/** The build stage house-number order: the rank of each live house-number key by its text. */
import { describe, expect, it } from 'vitest';
import { houseNumberRanks } from '../../../../src/data/build/stages/house-number-order.ts';
import { intakeOf, pt } from './rows.ts';

describe('house-number order', () => {
  it('ranks the live points\' house-number keys by text', () => {
    const { S, keys, intake } = intakeOf(['12', '2', '2 A', '10', '99'].map((housenumber) => pt({ housenumber })));
    const P = intake.points!;
    const dead = Uint8Array.from([0, 0, 0, 0, 1]);
    const rank = houseNumberRanks(P, dead, S, keys);
    const keyOf = (i: number) => keys.houseNumber(P.hn.a[i]!);
    const byRank = [0, 1, 2, 3].sort((a, b) => rank[keyOf(a)]! - rank[keyOf(b)]!).map((i) => S.str(keyOf(i)));
    expect(byRank).toEqual(['10', '12', '2', '2a']);
    expect(new Set([0, 1, 2, 3].map((i) => rank[keyOf(i)]))).toEqual(new Set([0, 1, 2, 3]));
  });
});
