/**
 * Stage 9 (named place): a city's part named with the city (`Berlin Neukölln`, `Neukölln, Berlin`,
 * `Frankfurt Sachsenhausen`), as people write where in a big city they mean. Two places the query
 * names, by words apart: the part, named in full, and the city (in full or by its first words:
 * `Frankfurt` for Frankfurt am Main), CITY_OVER_PART times as important, in the same state and
 * county, the part within the city's reach (reachMeters). Together they explain more words than
 * any one place named in full; a postal place that names both (`Wien, Favoriten`, `Hamburg
 * Eppendorf`) stays the answer, and so does a city named like the part's state (`Guarulhos, Sao
 * Paulo`: the state, state-part.ts) unless that state is the city itself. The answer is the part (its point, state and county) shown as
 * the city's district: city = the city's name.
 *
 * Without it the city alone was answered, its other word unexplained (relevance 50), or, where
 * the city's name is shared, a namesake far away (`Frankfurt Sachsenhausen` → Frankfurt (Oder)).
 */
import { DOC_PLACE } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import type { ParsedQuery } from '../parse/parse.ts';
import { firstNonStreetDoc } from './place-docs.ts';
import type { PlaceHit } from './place-hits.ts';
import { namesState, stateTable, statesCalled } from './state-table.ts';

/** A city is at least this many times as important as its part (rank: population, seat). */
const CITY_OVER_PART = 3;
/**
 * A part the post names codes after (a postal town: the place document has a postcode of its own
 * name) is a town of its own unless the city dwarfs it and it lies close: Valby by København,
 * Coburg by Melbourne, not Neuss by Düsseldorf (12 times smaller) or Dachau by München (17 km).
 */
const CITY_OVER_POSTAL_TOWN = 50;
const POSTAL_TOWN_METERS = 10_000;

/** How far from a city's point its parts lie, by its rank (a capital of millions reaches farther). */
function reachMeters(rank: number): number {
  return rank >= 1_000_000 ? 20_000 : rank >= 100_000 ? 12_000 : 6_000;
}

export interface CityPart {
  city: PlaceHit;
  part: PlaceHit;
}

/** The city and its part the query names (the most important such city, then the nearest part), if any. */
export function cityPart(index: AddressIndex, q: ParsedQuery, hits: readonly PlaceHit[], streetPart: readonly boolean[]): CityPart | undefined {
  const c = index.c, rank = c.docRank;
  const usable = hits.filter((p) => !p.typo && c.docKind[p.doc] === DOC_PLACE && !p.tokens.some((i) => streetPart[i]));
  if (usable.length < 2) return undefined;
  // the words one place named in full explains
  let one = 0;
  for (const p of hits) if (p.full && !p.typo) one = Math.max(one, p.tokens.length);
  let best: CityPart | undefined, bestDistance = Infinity;
  for (const part of usable) {
    if (!part.full) continue;
    const postalTown = c.docPostcode[part.doc] !== 0;
    for (const city of usable) {
      if (city === part || city.country !== part.country || city.tokens.length + part.tokens.length <= one) continue;
      if (rank[city.doc]! < rank[part.doc]! * (postalTown ? CITY_OVER_POSTAL_TOWN : CITY_OVER_PART) || city.tokens.some((i) => part.tokens.includes(i))) continue;
      const distance = index.docDistance(city.doc, part.doc);
      if (distance > (postalTown ? POSTAL_TOWN_METERS : reachMeters(rank[city.doc]!)) || !sameStateAndCounty(index, city.doc, part.doc)) continue;
      if (best && (rank[city.doc]! < rank[best.city.doc]! || (city.doc === best.city.doc && distance >= bestDistance))) continue;
      // a city named like the part's state is read as the state (`Guarulhos, Sao Paulo`, `Solna,
      // Stockholm`), unless the state is the city (Berlin, Wien, Praha: cityIsItsState)
      const stateCode = c.admStateCode[c.docAdmin[part.doc]!]!;
      if (namesState(index, city.tokens.map((i) => q.tokens[i]!.text).join(' '), index.str(stateCode)) && !cityIsItsState(index, city.doc, stateCode)) continue;
      // (the two names together a state's: `Šempeter–Vrtojba`, a municipality of Slovenia)
      const words = [...city.tokens, ...part.tokens].sort((a, b) => a - b).map((i) => q.tokens[i]!.text).join(' ');
      if (statesCalled(stateTable(index), words)) continue;
      best = { city, part };
      bestDistance = distance;
    }
  }
  return best;
}

/** Whether (city, state) was found to be a city-state, per index: a state's places are scanned once. */
const cityStates = new WeakMap<AddressIndex, Map<string, boolean>>();

/**
 * A state that is the city itself (Berlin, Wien, Praha, Budapest, Buenos Aires): every place of
 * the state lies within the city's reach (and 5 km more) of the city's point. Stockholm's or São
 * Paulo's state reaches far beyond the city.
 */
function cityIsItsState(index: AddressIndex, cityDoc: number, stateCode: number): boolean {
  let cache = cityStates.get(index);
  if (!cache) cityStates.set(index, (cache = new Map()));
  const key = `${cityDoc}|${stateCode}`;
  let is = cache.get(key);
  if (is === undefined) {
    const c = index.c;
    const reach = reachMeters(c.docRank[cityDoc]!) + 5_000;
    is = true;
    for (let d = firstNonStreetDoc(index); d < c.docKind.length && is; d++) {
      if (c.docKind[d] === DOC_PLACE && c.admStateCode[c.docAdmin[d]!] === stateCode && index.docDistance(cityDoc, d) > reach) is = false;
    }
    cache.set(key, is);
  }
  return is;
}

function sameStateAndCounty(index: AddressIndex, a: number, b: number): boolean {
  const c = index.c;
  const x = c.docAdmin[a]!, y = c.docAdmin[b]!;
  return x === y || (c.admState[x] === c.admState[y] && c.admCounty[x] === c.admCounty[y]);
}
