/** The build stage duplicates: the same address from two sources kept once; one source's points all kept. */
import { describe, expect, it } from 'vitest';
import { dropDuplicates } from '../../../../src/data/build/stages/duplicates.ts';
import { intakeOf, pt, recorder } from './rows.ts';

describe('duplicates across sources', () => {
  it('marks the second source\'s copy dead and gives the winner its other city as another name', () => {
    const { S, keys, intake } = intakeOf(
      [pt({ postcode: '' }), pt({ housenumber: '2' })],
      [pt({ city: 'Vaduz-Mitte', lat: 47.1411 }), pt({ housenumber: '2', lat: 47.2 })],
    );
    const pr = recorder();
    const { dead, merged } = dropDuplicates(intake.points!, S, keys, intake.addressSources, pr);
    expect(pr.phases).toEqual(['duplicates']);
    expect(merged).toBe(1);
    expect([...dead]).toEqual([0, 0, 1, 0]); // number 2 lies 6 km from its namesake: two points
    const P = intake.points!;
    expect(S.str(P.postcode.a[0]!)).toBe('9490'); // the gap filled from the merged point
    expect(S.str(P.alt.a[0]!)).toBe('Vaduz-Mitte');
  });

  it('does nothing with one address source, even for points that look the same', () => {
    const { S, keys, intake } = intakeOf([pt({}), pt({})]);
    const pr = recorder();
    const { dead, merged } = dropDuplicates(intake.points!, S, keys, intake.addressSources, pr);
    expect(merged).toBe(0);
    expect([...dead]).toEqual([0, 0]);
    expect(pr.phases).toEqual([]);
  });
});
