/**
 * Stage 9 (named place, see ../index.ts): which of the places a query names it means — the order
 * of place hits (place-hits.ts) by the query's evidence (its parts, the state it names, the
 * countries its street words and letters point to), by how each is named (in full, by another
 * name, by its first words, as typed) and by importance; and whether the best is clear of its
 * namesakes abroad.
 */
import { DOC_PLACE } from '../../index/format.ts';
import type { AddressIndex } from '../../index/index.ts';
import { MUCH_MORE_IMPORTANT, POSTAL_PLACE_RANK, otherSpellings, type PlaceHit } from './place-hits.ts';

/** The evidence `h` points to the country of one of `a` and `b`, not the other's. */
function hintedBetween(h: ReadonlySet<string> | undefined, a: PlaceHit, b: PlaceHit): boolean {
  return h !== undefined && h.size > 0 && a.country !== b.country && h.has(a.country) !== h.has(b.country);
}

/**
 * Whether `a` is the better answer than `b`. `hint`: the countries the street words and letters
 * point to; `wordHint`: those the street words alone point to (default `hint`), which alone may
 * keep a place named by another of its names from winning: an exonym is written in the writer's
 * letters, not the place's (`Kodaň`, `Vídeň` are Czech for København and Wien).
 */
export function betterPlace(index: AddressIndex, a: PlaceHit, b: PlaceHit, hint?: ReadonlySet<string>, prefer = '', wordHint = hint): boolean {
  // free text: a place named in a later part ("…, Bindlach") over street words of the first part,
  // unless it is named only by another of its names or its first words and a place of an earlier
  // part is named in full by its own (`Fribourg, Canton de Fribourg`: not Canton Beach, AU, nor
  // Luzern, whose untagged GeoNames alternates hold `Canton`)
  if (a.seg !== b.seg) {
    const later = a.seg > b.seg ? a : b, earlier = later === a ? b : a;
    if (!later.full && earlier.full && !earlier.typo) return a === earlier;
    return a === later;
  }
  if (a.tokens.length !== b.tokens.length) return a.tokens.length > b.tokens.length;
  // the state the query names decides between places of the name (`Córdoba, Andalucía`)
  if (a.inState !== b.inState) return a.inState;
  const hinted = hintedBetween(hint, a, b);
  const rank = index.c.docRank;
  // a place named by another of its names (Milan, Cracow, Geneva) or by its first words
  // (Frankfurt am Main) that is far more important than one named in full (the village MILAN, AR;
  // Frankfurt (Oder)) is the one meant, unless the query says more than the
  // name: a street, a postcode of the smaller place's country, its state ("Lotissement de la Plaine
  // 4, Plaisance" is Plaisance, FR, not Piacenza, which the French also call Plaisance)
  if (a.full !== b.full && !(wordHint === hint ? hinted : hintedBetween(wordHint, a, b))) {
    const other = a.full ? b : a, full = a.full ? a : b;
    // (a postal place's rank is no size: against a place named by another name (an exonym) it weighs
    // nothing, and against a place named by its first words it weighs as a town, POSTAL_PLACE_RANK,
    // so that only a city of over 100,000 or a seat outweighs it: Frankfurt am Main over the postal
    // place Frankfurt (Oder), Freiburg im Breisgau over Freiburg (Elbe))
    const fullRank = index.c.docKind[full.doc] === DOC_PLACE || other.alt ? rank[full.doc]! : POSTAL_PLACE_RANK;
    const weighed = other.alt || index.c.docKind[other.doc] === DOC_PLACE;
    if (weighed && !other.typo && !full.reason && rank[other.doc]! > fullRank * MUCH_MORE_IMPORTANT) return a === other;
  }
  if (a.full !== b.full) return a.full;
  // neither named in full, by another name or by its first words, and the query says no more: a
  // far more important place over the other way of naming ("Palma" is Palma de Mallorca's first
  // word, and only another name of Várzea da Palma, BR)
  const places = index.c.docKind[a.doc] === DOC_PLACE && index.c.docKind[b.doc] === DOC_PLACE;
  if (places && !a.full && !a.typo && !b.typo && !a.reason && !b.reason && !hinted) {
    if (rank[a.doc]! > rank[b.doc]! * MUCH_MORE_IMPORTANT) return true;
    if (rank[b.doc]! > rank[a.doc]! * MUCH_MORE_IMPORTANT) return false;
  }
  if (Math.abs(a.quality - b.quality) > 1e-9) return a.quality > b.quality;
  // the query's spelling: a name with the marks typed (Türi, EE) over one that only folds to it
  // (Turi, IT), unless that one is much more important (a postal name written without accents)
  if (otherSpellings(a, b)) {
    const spelled = a.marks > 0 ? a : b, other = spelled === a ? b : a;
    if (rank[other.doc]! <= rank[spelled.doc]! * MUCH_MORE_IMPORTANT) return a === spelled;
  }
  // the same name in two countries: the one the street's type word points to (Triq → MT)
  if (hinted) return hint!.has(a.country);
  const ka = index.c.docKind[a.doc], kb = index.c.docKind[b.doc];
  if (ka !== kb) return ka === DOC_PLACE;
  const ra = rank[a.doc]!, rb = rank[b.doc]!;
  // a much more important place wins; between places of similar importance, the one named later in the text
  if (ra > rb * MUCH_MORE_IMPORTANT || rb > ra * MUCH_MORE_IMPORTANT) return ra > rb;
  // places of similar importance in two countries: the preferred country's (prefer_country)
  if (prefer && a.country !== b.country && (a.country === prefer) !== (b.country === prefer)) return a.country === prefer;
  if (a.pos !== b.pos) return a.pos > b.pos;
  return ra > rb;
}

/**
 * Two places that stand alike in everything betterPlace weighs (the twenty postal places named
 * Paris, 75001–75020): betterPlace prefers neither of them whatever the hints, and prefers one of
 * them over a third place exactly when it prefers the other.
 */
function alike(rank: ArrayLike<number>, kind: ArrayLike<number>, a: PlaceHit, b: PlaceHit): boolean {
  return a.seg === b.seg && a.tokens.length === b.tokens.length && a.country === b.country && a.full === b.full && a.alt === b.alt
    && a.typo === b.typo && a.reason === b.reason && a.inState === b.inState && a.quality === b.quality && a.marks === b.marks
    && a.pos === b.pos && rank[a.doc] === rank[b.doc] && kind[a.doc] === kind[b.doc];
}

/**
 * The order of places by betterPlace, best first, for a sort: -1 when `a` is better, 1 when `b` is,
 * 0 when neither (alike places without weighing them twice).
 */
export function byBetterPlace(index: AddressIndex, hint?: ReadonlySet<string>, wordHint = hint): (a: PlaceHit, b: PlaceHit) => number {
  const rank = index.c.docRank, kind = index.c.docKind;
  return (a, b) => {
    if (alike(rank, kind, a, b)) return 0;
    return betterPlace(index, a, b, hint, '', wordHint) ? -1 : betterPlace(index, b, a, hint, '', wordHint) ? 1 : 0;
  };
}

/** Below this many places, or above this many kinds of alike places, sortedPlaces sorts the places themselves. */
const MIN_GROUPED = 8, MAX_KINDS = 16;

/**
 * `places` in the order of byBetterPlace, best first, as a stable sort of them would give it
 * (`places` itself, sorted). A city's name hits dozens of postal places that stand alike (Paris:
 * 57 hits of 5 kinds); their kinds are sorted instead of them, a fifth of the comparisons, and
 * each kind's places follow in their own order — merged with those of other kinds the order
 * holds equal, where a stable sort would interleave them.
 */
export function sortedPlaces(index: AddressIndex, places: PlaceHit[], hint?: ReadonlySet<string>, wordHint = hint): PlaceHit[] {
  const order = byBetterPlace(index, hint, wordHint);
  if (places.length < MIN_GROUPED) return places.sort(order);
  // each place's kind: among the kinds found so far, the last two places' first (a city's postal
  // places alternate between its name alone and its name with a district: `Paris`, `Paris 01`)
  const rank = index.c.docRank, kind = index.c.docKind;
  const kinds: number[][] = [];
  const same = (k: number, p: PlaceHit) => alike(rank, kind, places[kinds[k]![0]!]!, p);
  let last = -1, before = -1;
  for (let i = 0; i < places.length; i++) {
    const p = places[i]!;
    let k = last >= 0 && same(last, p) ? last : before >= 0 && same(before, p) ? before : -1;
    for (let j = 0; k < 0 && j < kinds.length; j++) if (j !== last && j !== before && same(j, p)) k = j;
    if (k < 0) {
      if (kinds.length === MAX_KINDS) return places.sort(order);
      k = kinds.push([]) - 1;
    }
    kinds[k]!.push(i);
    if (k !== last) { before = last; last = k; }
  }
  if (kinds.length === places.length) return places.sort(order);
  kinds.sort((a, b) => order(places[a[0]!]!, places[b[0]!]!));
  const out: PlaceHit[] = [];
  for (let k = 0; k < kinds.length;) {
    let run = kinds[k]!, end = k + 1;
    while (end < kinds.length && order(places[kinds[end - 1]![0]!]!, places[kinds[end]![0]!]!) === 0) run = run.concat(kinds[end++]!);
    if (end - k > 1) run.sort((x, y) => x - y);
    for (const i of run) out.push(places[i]!);
    k = end;
  }
  return out;
}

/**
 * Whether `best` is more important than each place sharedAbroad would weigh against it: the answer
 * to a query that names only that name, as a guess that lowers the relevance (Córdoba, AR, over
 * Córdoba, ES; Kirchberg, DE, over Kirchberg, CH), as Nominatim and Photon rank homonyms by
 * importance; places of equal importance decide nothing and there is no answer.
 */
export function clearlyMoreImportant(index: AddressIndex, best: PlaceHit, places: readonly PlaceHit[], hint: ReadonlySet<string>): boolean {
  const rank = index.c.docRank;
  for (const p of places) {
    if (p.country === best.country || p.seg !== best.seg || p.tokens.length !== best.tokens.length || p.full !== best.full) continue;
    if (Math.abs(p.quality - best.quality) > 1e-9 || otherSpellings(p, best)) continue;
    if (hint.size > 0 && hint.has(p.country) !== hint.has(best.country)) continue;
    if (rank[best.doc]! <= rank[p.doc]!) return false;
  }
  return true;
}

/** Another country's place named exactly as well as `best`, which neither hint, size nor the preferred country prefers. */
export function sharedAbroad(index: AddressIndex, best: PlaceHit, places: readonly PlaceHit[], hint: ReadonlySet<string>, prefer = ''): boolean {
  const rank = index.c.docRank;
  // the preferred country decides between similar places in two countries
  if (prefer && best.country === prefer) return false;
  for (const p of places) {
    if (p.country === best.country || p.seg !== best.seg || p.tokens.length !== best.tokens.length || p.full !== best.full) continue;
    if (Math.abs(p.quality - best.quality) > 1e-9 || otherSpellings(p, best)) continue;
    if (hint.size > 0 && hint.has(p.country) !== hint.has(best.country)) continue;
    if (rank[best.doc]! > rank[p.doc]! * MUCH_MORE_IMPORTANT || (best.inState && !p.inState)) continue;
    return true;
  }
  return false;
}
