/**
 * A thread's warm-up before a server takes requests: records made up from the index's own places
 * run through the engine for a while, discarded, so that V8 has compiled the hot code of lookups
 * and recipient blocks before the first caller waits on it. Without it a newly started `serve`
 * spends its first 10–15 s of real traffic compiling (docs/performance.md, issue 20): slower
 * answers and a p99 half again as high, right after every deploy.
 *
 * Nothing is charged and nothing is shown: the records never reach billing or a caller. They are
 * made from the index (so a national index warms its own paths): for an even sample of its
 * documents that name a town, an address there in the four forms people write (every field, free
 * text, no postcode, no town), its street named after another place and missing from the index as
 * a real caller's often is; and a recipient block for the same address, to its own country and
 * from another.
 */
import type { Op } from '../contract/params.ts';
import { validateElement, type ValidElement } from '../contract/validate.ts';
import { DOC_PLACE, DOC_STREET } from '../engine/index/format.ts';
import type { AddressIndex } from '../engine/index/index.ts';
import { runValidatedElement } from './run-validated.ts';
import type { WorkerState } from './tasks.ts';

/** Documents sampled for the made-up records. */
const SAMPLE_DOCS = 400;
const STREET_WORDS = ['Street', 'Straße', 'rue', 'vej', 'katu', 'Road'];
/** Countries of the recipient blocks when no index gives places. */
const FALLBACK_PLACES = [['DE', '10115', 'Berlin'], ['FR', '75001', 'Paris'], ['US', '10001', 'New York NY'], ['GB', 'SW1A 1AA', 'London']] as const;

export interface Place { country: string; zip: string; city: string; street: string; housenumber: string }

/**
 * The names the made-up streets take: an even sample of the index's place documents (a postcode
 * document's "name" is its code), at most SAMPLE_DOCS of them whatever the index's size.
 */
function placeNames(index: AddressIndex): string[] {
  const kinds = index.c.docKind;
  let places = 0;
  for (let d = 0; d < index.docCount; d++) if (kinds[d] === DOC_PLACE) places++;
  const every = Math.max(1, Math.floor(places / SAMPLE_DOCS));
  const names: string[] = [];
  for (let d = 0, seen = 0; d < index.docCount && names.length < SAMPLE_DOCS; d++) {
    if (kinds[d] === DOC_PLACE && seen++ % every === 0) names.push(index.str(index.c.docName[d]!));
  }
  return names;
}

/** The made-up places: an even sample of the index's documents that name a town. */
function places(index: AddressIndex | undefined): Place[] {
  if (!index || index.docCount === 0) {
    return FALLBACK_PLACES.map(([country, zip, city], k) => ({ country, zip, city, street: `Main ${STREET_WORDS[k]!}`, housenumber: String(k + 1) }));
  }
  const c = index.c;
  const names = placeNames(index);
  const out: Place[] = [];
  const step = Math.max(1, Math.floor(index.docCount / SAMPLE_DOCS));
  for (let d = 0, k = 0; d < index.docCount && out.length < SAMPLE_DOCS; d += step, k++) {
    const city = index.str(c.docCity[d]!) || (c.docKind[d] === DOC_STREET ? '' : index.str(c.docName[d]!));
    if (!city) continue;
    const other = names.length > 0 ? names[(k * 7919 + 13) % names.length]! : 'Main';
    out.push({
      country: index.str(c.docCountry[d]!), zip: index.str(c.docPostcode[d]!), city,
      street: `${other} ${STREET_WORDS[k % STREET_WORDS.length]!}`, housenumber: String(1 + (k % 97)),
    });
  }
  return out;
}

/**
 * The raw requests of `op` for the places (`made`: the index's, made again unless given), validated as an entrance validates them (the invalid
 * are left out); no lookups without an index.
 */
export function warmUpElements(index: AddressIndex | undefined, op: Op, made: readonly Place[] = places(index)): ValidElement[] {
  if (op === 'search' && !index) return [];
  const raws: Record<string, string>[] = [];
  for (const p of made) {
    if (op === 'search') {
      raws.push(
        { street: p.street, housenumber: p.housenumber, zip: p.zip, city: p.city, country: p.country },
        { address: `${p.street} ${p.housenumber}, ${p.zip} ${p.city}`.replace(/\s+/g, ' ') },
        { street: p.street, housenumber: p.housenumber, city: p.city },
        { street: p.street, housenumber: p.housenumber, zip: p.zip },
      );
    } else {
      const address = { street: p.street, housenumber: p.housenumber, zip: p.zip, city: p.city, countrycode: p.country };
      raws.push({ ...address, sendercountrycode: p.country }, { ...address, sendercountrycode: p.country === 'DE' ? 'FR' : 'DE' });
    }
  }
  const out: ValidElement[] = [];
  for (const raw of raws) {
    const v = validateElement(op, raw);
    if (v.ok) out.push(v as ValidElement);
  }
  return out;
}

export interface WarmedUp {
  records: number;
  ms: number;
  /** Why the warm-up stopped early (a defect in making the records): the server starts all the same. */
  failed?: string;
}

/** Records run between two looks at the clock. */
const CHUNK = 32;

/**
 * Runs the made-up records of `ops`, a chunk of each in turn, discarding their outcomes, until
 * `ms` have passed. Never throws: a warm-up is an optimisation, and a server whose warm-up failed
 * still starts (an engine defect on a record is that record's 500 outcome, discarded too).
 */
export function warmUp(state: WorkerState, ops: readonly Op[], ms: number): WarmedUp {
  const start = performance.now();
  let records = 0;
  const done = (failed?: unknown): WarmedUp => ({ records, ms: Math.round(performance.now() - start), ...(failed === undefined ? {} : { failed: String((failed as Error)?.message ?? failed) }) });
  if (ms <= 0) return { records: 0, ms: 0 };
  try {
    // (the places once, for every op)
    const made = places(state.ctx.index);
    const lists = ops.map((op) => ({ op, elements: warmUpElements(state.ctx.index, op, made), next: 0 })).filter((l) => l.elements.length > 0);
    while (lists.length > 0 && performance.now() - start < ms) {
      for (const l of lists) {
        for (let k = 0; k < CHUNK; k++, l.next = (l.next + 1) % l.elements.length) runValidatedElement(state, l.op, l.elements[l.next]!);
        records += CHUNK;
      }
    }
  } catch (err) {
    return done(err);
  }
  return done();
}
