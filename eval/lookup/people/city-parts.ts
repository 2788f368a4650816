/**
 * Set "city parts", patterns `city part` and `part, city`: a big city's part written with the city, as
 * people write where in a city they mean (`Berlin Neukölln`, `Neukölln, Berlin`, `Frankfurt
 * Sachsenhausen`). Added 2026-11-27, its rule fixed before its first run and before the engine
 * read such a pair (the city alone was answered, at relevance 50, or a namesake far away).
 *
 * The parts: cities500's sections of a populated place (feature code PPLX) of the destinations,
 * each given to the nearest of the chosen places (the 30 most populous of each destination) with
 * 200,000 people or more within 10 km, unless that place itself lies within 10 km of a more
 * populous chosen place (Islington by London, Badalona by Barcelona: parts, not cities); a
 * section whose name holds a word of a chosen place's name (`Bochum-Hordel`) is left out; at
 * most four per city (the most populous sections, then by id). The city is written by its local
 * name. Truth: the part itself, its point within 2 km (a city's centre is farther from most of
 * its parts). A set of its own: the places set's targets keep their meaning.
 */
import { readFileSync } from 'node:fs';
import { distanceMeters } from '../../../src/data/geo.ts';
import { cities500Path } from '../../../src/data/readers/cities500.ts';
import { SUPPORTED_DESTINATIONS } from '../../../src/engine/lines/iso3166.ts';
import { foldTokens } from '../../../src/engine/lookup/normalize/normalize.ts';
import { makeCase, type PeopleCase, type PlaceTruth } from './cases.ts';
import { chosenPlaces } from './places.ts';

const PART_KM = 10;
const CITY_POP = 200_000;
const PARTS_PER_CITY = 4;
const TRUTH_KM = 2;

interface Section { id: string; cc: string; name: string; ascii: string; lat: number; lon: number; pop: number }

function sections(): Section[] {
  const wanted = new Set(SUPPORTED_DESTINATIONS);
  const out: Section[] = [];
  for (const line of readFileSync(cities500Path(), 'utf8').split('\n')) {
    const f = line.split('\t');
    if (f.length < 15 || f[7] !== 'PPLX' || !wanted.has(f[8]!)) continue;
    out.push({ id: f[0]!, cc: f[8]!, name: f[1]!, ascii: f[2]!, lat: Number(f[4]), lon: Number(f[5]), pop: Number(f[14]) || 0 });
  }
  return out.sort((a, b) => b.pop - a.pop || a.id.localeCompare(b.id));
}

export function cityPartCases(): PeopleCase[] {
  const { byCountry, names } = chosenPlaces();
  const chosen = [...byCountry.values()].flat();
  const wordsOf = (p: (typeof chosen)[number]) => new Set([...foldTokens(names.get(p.id)!.local), ...foldTokens(p.name)]);
  const near = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => distanceMeters(a.lat, a.lon, b.lat, b.lon) <= PART_KM * 1000;
  // a big city that lies within reach of a bigger one is itself a part of that city (Islington, Badalona)
  const cities = chosen.filter((p) => p.pop >= CITY_POP && !chosen.some((o) => o.cc === p.cc && o.pop > p.pop && near(o, p)));
  const cityWords = new Set(chosen.flatMap((p) => [...wordsOf(p)]));
  const partsOf = new Map<string, Section[]>();
  for (const s of sections()) {
    if (s.name.length < 4 || foldTokens(s.name).some((w) => cityWords.has(w))) continue;
    // the nearest big city within reach: a section between two cities is the nearer one's
    let best: (typeof cities)[number] | undefined, bd = Infinity;
    for (const c of cities) {
      if (c.cc !== s.cc) continue;
      const d = distanceMeters(s.lat, s.lon, c.lat, c.lon);
      if (d <= PART_KM * 1000 && d < bd) { bd = d; best = c; }
    }
    if (!best) continue;
    const list = partsOf.get(best.id) ?? partsOf.set(best.id, []).get(best.id)!;
    if (list.length < PARTS_PER_CITY) list.push(s);
  }
  const out: PeopleCase[] = [];
  for (const city of cities) {
    const local = names.get(city.id)!.local;
    for (const s of partsOf.get(city.id) ?? []) {
      const truth: PlaceTruth = { kind: 'place', country: s.cc, names: [s.name, s.ascii], lat: s.lat, lon: s.lon, radiusKm: TRUTH_KM, label: `${s.name}, ${local} (${s.cc})` };
      for (const [pattern, q] of [['city part', `${local} ${s.name}`], ['part, city', `${s.name}, ${local}`]] as const) {
        out.push(makeCase('city parts', `${s.id}:${pattern}:${q}`, s.cc, pattern, { address: q }, truth));
      }
    }
  }
  return out;
}
