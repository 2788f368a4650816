/** The build stage street geometry: the named lines near a document's points, its display point and the addresses' navigation points. */
import { describe, expect, it } from 'vitest';
import { displayPoint, navigationPoint, nearLines, NAV_MAX_METERS } from '../../../../src/data/build/stages/street-lines.ts';
import { distanceMeters } from '../../../../src/data/geo.ts';
import { intakeOf, pt } from './rows.ts';

/** Three points of Städtle along lon 9.5 (about 110 m), as a document's `seg`. */
function street() {
  const { S, keys, intake } = intakeOf([47.0, 47.0005, 47.001].map((lat, i) => pt({ housenumber: String(i + 1), lat, lon: 9.5 })));
  const seg = Float64Array.from([0, 1, 2]);
  return { S, keys, intake, P: intake.points!, seg };
}

describe('street geometry', () => {
  it('takes the lines of the same folded name near the points, marks them used, and leaves other names', () => {
    const { S, keys, intake, P, seg } = street();
    const L = intake.lines;
    L.add(S.intern('STÄDTLE'), 0, Float64Array.from([9.501, 46.999, 9.501, 47.002])); // 76 m east
    L.add(S.intern('Aeulestrasse'), 0, Float64Array.from([9.5005, 46.999, 9.5005, 47.002]));
    L.add(S.intern('Städtle'), 0, Float64Array.from([9.6, 47, 9.6, 47.001])); // 7.6 km east
    L.finish();
    expect(nearLines(P, L, keys, seg, 3, P.street.a[0]!, 47.0005)).toEqual([0]);
    expect([...L.used.view()]).toEqual([1, 0, 0]);
  });

  it('puts the display point on the nearest line (then also the navigation point), else on the address nearest the centroid', () => {
    const { S, intake, P, seg } = street();
    const L = intake.lines;
    L.add(S.intern('Städtle'), 0, Float64Array.from([9.501, 46.999, 9.501, 47.002]));
    L.finish();
    const on = displayPoint(P, L, [0], seg, 3, 47.0005, 9.5);
    expect(on.onLine).toBe(true);
    expect(on.lon).toBeCloseTo(9.501, 9);
    expect(on.lat).toBeCloseTo(47.0005, 6);
    const off = displayPoint(P, L, [], seg, 3, 47.0004, 9.5);
    expect(off).toEqual({ lat: 47.0005, lon: 9.5, onLine: false });
  });

  it('gives an address a navigation point on the nearest line within NAV_MAX_METERS only', () => {
    const { S, intake } = street();
    const L = intake.lines;
    L.add(S.intern('Städtle'), 0, Float64Array.from([9.501, 46.999, 9.501, 47.002])); // 76 m
    L.add(S.intern('Städtle'), 0, Float64Array.from([9.5015, 46.999, 9.5015, 47.002])); // 114 m
    L.add(S.intern('Städtle'), 0, Float64Array.from([9.51, 46.999, 9.51, 47.002])); // 760 m
    L.finish();
    const nav = navigationPoint(L, [1, 0, 2], 47.0005, 9.5)!;
    expect(nav[1]).toBeCloseTo(9.501, 9);
    expect(distanceMeters(47.0005, 9.5, nav[0], nav[1])).toBeLessThan(NAV_MAX_METERS);
    expect(navigationPoint(L, [2], 47.0005, 9.5)).toBeUndefined();
    expect(navigationPoint(L, [], 47.0005, 9.5)).toBeUndefined();
  });
});
