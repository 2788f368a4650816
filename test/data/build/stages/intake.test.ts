/** The build stage intake: rows into typed columns with interned strings; unusable rows counted per source and reason. */
import { describe, expect, it } from 'vitest';
import { COORD_SCALE } from '../../../../src/engine/index/format.ts';
import { unpackCountry } from '../../../../src/data/build/point-store.ts';
import { intakeOf, place, postcodeEntry, pt } from './rows.ts';

describe('intake', () => {
  it('keeps address points as fixed-point columns with each string interned once', () => {
    const { S, intake } = intakeOf([pt({ housenumber: '1' }), pt({ housenumber: '2', lat: 47.1412 }), pt({ housenumber: '1', street: 'Aeulestrasse', unit: '3', altCities: ['A', 'B'] })]);
    const P = intake.points!;
    expect(P.count).toBe(3);
    expect(P.lat.a[1]).toBe(Math.round(47.1412 * COORD_SCALE));
    expect(unpackCountry(P.country.a[0]!)).toBe('LI');
    expect(P.street.a[0]).toBe(P.street.a[1]);
    expect(S.str(P.street.a[2]!)).toBe('Aeulestrasse');
    expect(P.hn.a[0]).toBe(P.hn.a[2]);
    expect(S.str(P.unit.a[2]!)).toBe('3');
    expect(S.str(P.alt.a[2]!)).toBe('A\u001fB');
    expect([...P.source.a.subarray(0, 3)]).toEqual([0, 0, 0]);
    expect(intake.sources[0]!.counts.addresses).toBe(3);
  });

  it('counts what it cannot use per source and reason, and keeps no row of it', () => {
    const { intake } = intakeOf(
      [pt({ lat: 91 }), pt({ lon: NaN }), pt({ street: ' ' }), pt({ housenumber: '' }), pt({ housenumber: '-' }), pt({})],
      [pt({ street: '' })],
    );
    expect(intake.sources[0]!.counts.rejected).toEqual({ 'bad-coordinates': 2, 'no-street': 1, 'no-housenumber': 1, 'bad-housenumber': 1 });
    expect(intake.sources[1]!.counts.rejected).toEqual({ 'no-street': 1 });
    expect(intake.points!.count).toBe(1);
    expect([...intake.points!.source.a.subarray(0, 1)]).toEqual([0]);
    expect(intake.addressSources).toBe(1);
    expect(intake.rowCount).toBe(1 + 6);
  });

  it('takes lines, places, postcodes and admin areas of a source, copying the objects it is given', () => {
    const { S, intake } = intakeOf();
    const sink = intake.source('osm:x');
    sink.line({ name: 'Städtle', names: { de: 'Städtle' }, coords: Float64Array.from([9.52, 47.14, 9.53, 47.15]) });
    sink.line({ name: 'Nowhere', coords: Float64Array.from([9.52]) });
    sink.line({ name: '', coords: Float64Array.from([9.52, 47.14, 9.53, 47.15]) });
    const p = place({});
    sink.place(p);
    p.name = 'changed by the reader afterwards';
    sink.place(place({ lat: NaN }));
    sink.postcode(postcodeEntry({}));
    sink.postcode(postcodeEntry({ code: '' }));
    sink.admin({ country: 'LI', level: 4, name: 'Vaduz', iso: 'LI-11', rings: [], bbox: [0, 0, 0, 0] });
    expect(intake.lines.count).toBe(1);
    expect(S.str(intake.lines.name.a[0]!)).toBe('Städtle');
    expect(S.str(intake.lines.names.a[0]!)).toBe('de\u001fStädtle');
    expect(intake.places.map((x) => x.name)).toEqual(['Vaduz']);
    expect(intake.postcodes).toHaveLength(1);
    expect(intake.admins).toHaveLength(1);
    expect(intake.sources[0]!.counts).toEqual({ addresses: 0, lines: 1, places: 1, postcodes: 1, admins: 1, rejected: { 'no-geometry': 1, 'no-name': 1, 'bad-coordinates': 1, 'no-postcode': 1 } });
    expect(intake.addressSources).toBe(0);
  });

  it('refuses a 256th source (the source index is one byte a point) and points after the build', () => {
    const { intake } = intakeOf();
    for (let i = 0; i < 255; i++) intake.source(`s${i}`);
    expect(() => intake.source('one too many')).toThrow(/255/);
    const { intake: built } = intakeOf();
    const late = built.source('late');
    built.points = undefined;
    expect(() => late.address(pt({}))).toThrow(/already built/);
  });
});
