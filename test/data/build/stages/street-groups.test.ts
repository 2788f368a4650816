/** The build stage street groups: live points by (country, folded street, folded city), ordered by group. */
import { describe, expect, it } from 'vitest';
import { groupStreets } from '../../../../src/data/build/stages/street-groups.ts';
import { intakeOf, pt, recorder } from './rows.ts';

describe('street groups', () => {
  it('groups by folded street and city within a country, keeps input order in a group and leaves dead points out', () => {
    const { keys, intake } = intakeOf([
      pt({ street: 'Städtle', housenumber: '1' }),
      pt({ street: 'Aeulestrasse', housenumber: '2' }),
      pt({ street: 'STÄDTLE', housenumber: '3', city: 'VADUZ' }),
      pt({ street: 'Städtle', housenumber: '4', country: 'CH' }),
      pt({ street: 'Städtle', housenumber: '5' }),
      pt({ street: 'Städtle', housenumber: '6' }),
    ]);
    const dead = Uint8Array.from([0, 0, 0, 0, 0, 1]);
    const g = groupStreets(intake.points!, dead, keys, recorder());
    expect(g.count).toBe(3);
    const members = Array.from({ length: g.count }, (_, k) => [...g.order.subarray(g.start[k]!, g.start[k + 1]!)]);
    expect(members).toEqual([[0, 2, 4], [1], [3]]);
    expect(g.start[g.count]).toBe(5);
    // the grouper stays open for the line-only streets: the same key is the same group
    const P = intake.points!;
    expect(g.grouper.id(P.country.a[0]!, keys.fold(P.street.a[0]!), keys.fold(P.city.a[0]!))).toBe(0);
  });
});
