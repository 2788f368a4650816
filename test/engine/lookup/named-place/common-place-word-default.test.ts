/**
 * A word that begins thousands of place names (Saint, Monte) names none of them alone
 * (place-hits.ts COMMON_PLACE_WORD), on the embedded default (no ../shared needed): the places a
 * query naming `Saint-…` hits are those more of its words name, not every Saint-… of the index, and
 * the answers stay what they were (the whole eval, 105,354 lookups, answers byte for byte the
 * same: docs/performance.md).
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import { exactMatches } from '../../../../src/engine/lookup/match/matches.ts';
import { COMMON_PLACE_WORD, placeHits } from '../../../../src/engine/lookup/named-place/place-hits.ts';
import { placeDocs } from '../../../../src/engine/lookup/named-place/place-docs.ts';
import { streetPartTokens } from '../../../../src/engine/lookup/named-place/street-part.ts';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';
import type { SearchRequest } from '../../../../src/contract/requests.ts';

loadDefaultIndexBeforeAll();

function hitsOf(req: SearchRequest) {
  const q = parseRequest(req);
  return { q, hits: placeHits(index, q, exactMatches(index, q), streetPartTokens(q)) };
}

describe('a common first word names no place alone', () => {
  it('`saint` begins more names than the limit in the embedded index', () => {
    expect(placeDocs(index, index.tokenId('saint')).length).toBeGreaterThan(COMMON_PLACE_WORD);
  });

  const CASES: [SearchRequest, Partial<Record<'city' | 'zip' | 'country_iso_2', string>>][] = [
    [{ address: 'Rue du Mas 16, 43700 Saint-Germain-Laprade' }, { city: 'Saint-Germain-Laprade', zip: '43700', country_iso_2: 'FR' }],
    [{ address: 'Avenue Maurice Fournol 405, Saint-Affrique' }, { city: 'Saint-Affrique', country_iso_2: 'FR' }],
    [{ city: 'Saint-Flour' }, { city: 'Saint-Flour', country_iso_2: 'FR' }],
    [{ zip: '32300', city: 'Saint-Martin' }, { zip: '32300', country_iso_2: 'FR' }],
  ];
  for (const [req, want] of CASES) {
    it(`${JSON.stringify(req)}: only places more of its words name, and its answer`, () => {
      const { q, hits } = hitsOf(req);
      const saint = q.tokens.findIndex((t) => t.text === 'saint');
      // named by its first word alone: neither in full nor by another name, by `saint` only
      const bySaintAlone = hits.filter((h) => !h.full && !h.alt && h.tokens.length === 1 && h.tokens[0] === saint);
      expect(bySaintAlone).toEqual([]);
      expect(hits.length).toBeLessThan(1_000); // every Saint-… of the index was a hit: about 5,800
      expect(lookup(index, req)).toMatchObject(want);
    });
  }

  it('a rarer first word still names a place by itself (`Krems` for Krems an der Donau)', () => {
    const { hits } = hitsOf({ city: 'Krems' });
    expect(hits.some((h) => !h.full && !h.alt && index.str(index.c.docCity[h.doc]!).startsWith('Krems an der Donau'))).toBe(true);
  });
});
