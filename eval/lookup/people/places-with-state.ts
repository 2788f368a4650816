/**
 * Set "places with state": the places of the set "places" (the 30 most populous of each
 * destination), written as people write `City, State`: the local name and the English name, each
 * followed by the state GeoNames' postal data gives the place (the `state` column of the postal
 * place found for its local name: `München, Bayern`, `Launceston, Tasmania`, `Kraków,
 * Małopolskie`), and the local name with its state after a space or in brackets (`Getafe Madrid`,
 * `Montréal (Québec)`; added with the state named by the last words of a part, before that run),
 * and the latter as a structured city field (`{"city": "Montréal (Québec)"}`).
 * A place whose state name is its own name (`Berlin, Berlin`) or that has none is
 * left out. Truth = the place itself: the state names it, so no homonym is expected instead.
 * Added with the state part of free text (src/engine/lookup/named-place/state-part.ts); its rule
 * fixed before that run.
 */
import { SUPPORTED_DESTINATIONS } from '../../../src/engine/lines/iso3166.ts';
import { foldText } from '../../../src/engine/lookup/normalize/normalize.ts';
import { makeCase, type PeopleCase } from './cases.ts';
import { chosenPlaces, truthOf } from './places.ts';

export function placeStateCases(): PeopleCase[] {
  const { byCountry, names } = chosenPlaces();
  const out: PeopleCase[] = [];
  for (const cc of SUPPORTED_DESTINATIONS) {
    for (const p of byCountry.get(cc) ?? []) {
      const n = names.get(p.id)!;
      if (!n.state || foldText(n.state) === foldText(n.local)) continue;
      const qs: [string, string][] = [
        ['local name, state', `${n.local}, ${n.state}`],
        // with no comma, as people also write it, and in brackets (Canada's and Spain's usage:
        // `Montréal (Québec)`, `Getafe (Madrid)`)
        ['local name state', `${n.local} ${n.state}`],
        ['local name (state)', `${n.local} (${n.state})`],
      ];
      if (foldText(n.english) !== foldText(n.local)) qs.push(['English name, state', `${n.english}, ${n.state}`]);
      for (const [pattern, q] of qs) out.push(makeCase('places with state', `${p.id}:${pattern}:${q}`, cc, pattern, { address: q }, truthOf(p, n.all)));
      // the city field of an export that holds the state too (added 2026-11-27 with the state in
      // the city field, before that run)
      const city = `${n.local} (${n.state})`;
      out.push(makeCase('places with state', `${p.id}:city field (state):${city}`, cc, 'city field, local name (state)', { city }, truthOf(p, n.all)));
    }
  }
  return out;
}
