/**
 * Runs the people sets on an index: builds the cases (fixed rules, no engine input), asks the
 * lookup, scores each answer. Used by `npm run eval:lookup` and by `node eval/lookup/run.ts people`.
 */
import { cityPartCases } from './city-parts.ts';
import { MISSPELT_SET, misspeltCases } from './misspelt.ts';
import { TOWN_EXONYMS_SET, townExonymCases } from './town-exonyms.ts';
import type { SearchRecord } from '../../../src/contract/records.ts';
import type { SearchRequest } from '../../../src/contract/requests.ts';
import type { AddressIndex } from '../../../src/engine/index/index.ts';
import { addressCases } from './addresses.ts';
import type { PeopleCase } from './cases.ts';
import { geocoderCases } from './geocoder-cases.ts';
import { placeCases } from './places.ts';
import { placeStateCases } from './places-with-state.ts';
import { stateCases } from './states.ts';
import { isRight, ruledOut, tallyOutcomes, type SetReport } from './score.ts';

export type Lookup = (i: AddressIndex, r: SearchRequest) => SearchRecord;

export const PEOPLE_SETS: Readonly<Record<string, () => PeopleCase[]>> = {
  places: placeCases,
  addresses: () => addressCases(),
  'geocoder cases': geocoderCases,
  states: stateCases,
  'places with state': placeStateCases,
  'city parts': cityPartCases,
  [MISSPELT_SET]: () => misspeltCases(),
  [TOWN_EXONYMS_SET]: townExonymCases,
};

export function evaluateCases(index: AddressIndex, set: string, cases: PeopleCase[], lookupFn: Lookup): SetReport {
  return tallyOutcomes(set, cases.map((c) => {
    const r = lookupFn(index, c.query);
    return { c, r, right: isRight(c, r), out: ruledOut(c, r) };
  }));
}
