/**
 * Place documents: one per place with a name and a country, its names (main, alternate,
 * localised) as city tokens, ranked by importance (population, at least its type's rank, weighed by
 * its seat of government: SEAT_WEIGHT), with the postcode
 * of the nearest postcode entry of the same place name within 10 km (build/named-postcodes).
 */
import { DOC_PLACE, ROLE_CITY } from '../../../engine/index/format.ts';
import { foldText, foldTokens } from '../../../engine/lookup/normalize/normalize.ts';
import type { Place, PostcodeEntry } from '../../source-types.ts';
import { fix } from '../doc-columns.ts';
import { encodeNames } from '../encode-names.ts';
import { NamedPostcodes } from '../named-postcodes.ts';
import type { BuildProgress } from '../progress.ts';
import type { Documents } from './documents.ts';

/**
 * A seat of government weighs more than its population among homonyms (the importance of a place):
 * a capital ten times (Nicosia, CY, over Nicosia, Sicily), a first-level seat three times, a
 * second-level seat one and a half.
 */
const SEAT_WEIGHT = [1, 10, 3, 1.5];

export function placeDocuments(docs: Documents, places: Place[], postcodes: PostcodeEntry[], nAddr: number, pr: BuildProgress): void {
  const { D, T, S, admin } = docs;
  pr.phase('place documents', places.length);
  const folds = places.map((p) => (p.name && p.country ? foldText(p.name) : undefined));
  const wanted = places.flatMap((p, i): [string, string][] => (folds[i] === undefined ? [] : [[p.country, folds[i]]]));
  const named = new NamedPostcodes(postcodes, docs.postcodePlaceFolds(postcodes), wanted);
  for (let i = 0; i < places.length; i++) {
    const p = places[i]!;
    if (!p.name || !p.country) continue;
    const countryId = S.intern(p.country), nameId = S.intern(p.name); // in this order: the string table's
    const d = D.begin(DOC_PLACE, countryId, nameId, nameId, 0);
    D.lat.a[d] = fix(p.lat); D.lon.a[d] = fix(p.lon);
    D.addrStart.a[d] = nAddr;
    D.tokStart.a[d] = T.beginDoc(d);
    for (const t of foldTokens(p.name)) T.add(S.intern(t), ROLE_CITY);
    for (const alt of p.altNames ?? []) for (const t of foldTokens(alt)) T.add(S.intern(t), ROLE_CITY);
    for (const nm of Object.values(p.names ?? {})) for (const t of foldTokens(nm)) T.add(S.intern(t), ROLE_CITY);
    D.tokCount.a[d] = T.docTok.n - D.tokStart.a[d]!;
    const typeRank = p.type === 'city' ? 100_000 : p.type === 'town' ? 10_000 : p.type === 'village' ? 1_000 : p.type === 'suburb' ? 500 : 100;
    D.rank.a[d] = Math.min(Math.round(Math.max(p.population, typeRank) * (SEAT_WEIGHT[p.seat ?? 0] ?? 1)), 0xffffffff);
    const shown = p.displayNames ? { ...p.displayNames, ...p.names } : p.names;
    if (shown) D.names.a[d] = S.intern(encodeNames(shown));
    D.admin.a[d] = admin.adminFor(p.country, '', p.lat, p.lon, p);
    const nb = named.nearest(p.country, folds[i]!, p.lat, p.lon);
    if (nb && nb[1] < 10_000) D.postcode.a[d] = S.intern(nb[0].code);
  }
}
