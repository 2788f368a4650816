/** Hand-made input for the build stages' tests: rows through the intake, places, postcode entries. */
import { StringInterner } from '../../../../src/data/build/interner.ts';
import type { BuildProgress } from '../../../../src/data/build/progress.ts';
import { Intake } from '../../../../src/data/build/stages/intake.ts';
import { StringKeys } from '../../../../src/data/build/string-keys.ts';
import type { AddressPoint, Place, PostcodeEntry } from '../../../../src/data/source-types.ts';

export const pt = (o: Partial<AddressPoint>): AddressPoint => ({
  country: 'LI', street: 'Städtle', housenumber: '1', postcode: '9490', city: 'Vaduz', district: '', lat: 47.141, lon: 9.521, ...o,
});

export const place = (o: Partial<Place>): Place => ({ country: 'LI', name: 'Vaduz', lat: 47.141, lon: 9.521, population: 5000, type: 'town', ...o });

export const postcodeEntry = (o: Partial<PostcodeEntry>): PostcodeEntry => ({
  country: 'LI', code: '9490', place: 'Vaduz', state: '', stateCode: '', county: '', lat: 47.141, lon: 9.521, ...o,
});

/** A fresh string table, its keys and an intake holding `sources` (one array of points each). */
export function intakeOf(...sources: AddressPoint[][]): { S: StringInterner; keys: StringKeys; intake: Intake } {
  const S = new StringInterner();
  const keys = new StringKeys(S);
  const intake = new Intake(S, keys);
  sources.forEach((rows, i) => {
    const sink = intake.source(`s${i}`);
    for (const r of rows) sink.address(r);
  });
  return { S, keys, intake };
}

/** Progress that records its phases. */
export function recorder(): BuildProgress & { phases: string[] } {
  const phases: string[] = [];
  return { phases, phase(name) { phases.push(name); }, tick() {} };
}

/** Degrees of latitude for `m` metres. */
export const dLat = (m: number) => m / 110_574;
