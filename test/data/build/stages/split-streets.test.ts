/** The build stage street parts: a group in several places becomes several parts; its own lines can join them. */
import { describe, expect, it } from 'vitest';
import { LineStore } from '../../../../src/data/build/line-store.ts';
import { lineMeetsParts, splitStreets } from '../../../../src/data/build/stages/split-streets.ts';
import { groupStreets } from '../../../../src/data/build/stages/street-groups.ts';
import { dLat, intakeOf, pt, recorder } from './rows.ts';

/** Points 1-3 near 47.0, 4-5 at 47.0 + 5 km (same street and city), 6 on another street. */
function rows() {
  return [
    pt({ housenumber: '1', lat: 47 }), pt({ housenumber: '4', lat: 47 + dLat(5000) }), pt({ housenumber: '2', lat: 47 + dLat(50) }),
    pt({ housenumber: '5', lat: 47 + dLat(5100) }), pt({ housenumber: '3', lat: 47 + dLat(100) }), pt({ housenumber: '6', street: 'Aeule' }),
  ].map((p) => ({ ...p, lon: 9.5 }));
}

function partsOf(parts: { start: Uint32Array; count: number }, order: Uint32Array): number[][] {
  return Array.from({ length: parts.count }, (_, q) => [...order.subarray(parts.start[q]!, parts.start[q + 1]!)]);
}

describe('street parts', () => {
  it('splits a group whose points lie 5 km apart into two parts, contiguous and stable, without boxes when there are no lines', () => {
    const { S, keys, intake } = intakeOf(rows());
    const lines = intake.lines;
    lines.finish();
    const groups = groupStreets(intake.points!, new Uint8Array(6), keys, recorder());
    const parts = splitStreets(intake.points!, lines, groups, keys, recorder());
    expect(partsOf(parts, groups.order)).toEqual([[0, 2, 4], [1, 3], [5]]);
    expect([...parts.group]).toEqual([0, 0, 1]);
    expect([...parts.firstPart]).toEqual([0, 2, 3]);
    expect(parts.box.length).toBe(0);
    expect(S.str(intake.points!.hn.a[5]!)).toBe('6');
  });

  it('keeps them one part when the street\'s own line joins them, and records the parts\' boxes', () => {
    const { S, keys, intake } = intakeOf(rows());
    const lines: LineStore = intake.lines;
    lines.add(S.intern('städtle'), 0, Float64Array.from([9.5, 47, 9.5, 47 + dLat(5100)]));
    lines.add(S.intern('Aeule'), 0, Float64Array.from([9.6, 47, 9.6, 47.1]));
    lines.finish();
    const groups = groupStreets(intake.points!, new Uint8Array(6), keys, recorder());
    const parts = splitStreets(intake.points!, lines, groups, keys, recorder());
    expect(partsOf(parts, groups.order)).toEqual([[0, 1, 2, 3, 4], [5]]);
    expect(parts.box.length).toBe(8);
    expect(parts.box[0]).toBe(470_000_000);
    // a line near the first group's box meets it; one 20 km away does not
    expect(lineMeetsParts(Float64Array.from([9.5, 47.01, 9.51, 47.02]), parts, 0, 0.001)).toBe(true);
    expect(lineMeetsParts(Float64Array.from([9.5, 47.2, 9.51, 47.21]), parts, 0, 0.001)).toBe(false);
  });
});
