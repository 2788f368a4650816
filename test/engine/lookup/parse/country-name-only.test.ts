/** A query that is only a country's name keeps its words (the place of that name may answer it). */
import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';

describe('parseRequest: a text that is only a country name', () => {
  it('sets the country and keeps the words', () => {
    for (const [address, cc] of [['Luxembourg', 'LU'], ['Brasília', 'BR'], ['Deutschland', 'DE'], ['Malta', 'MT']] as const) {
      const q = parseRequest({ address });
      expect(q.country, address).toBe(cc);
      expect(q.countryNameOnly, address).toBe(true);
      expect(q.tokens.length, address).toBeGreaterThan(0);
    }
  });
  it('a country name beside other words is the country only, removed from the words', () => {
    const q = parseRequest({ address: 'Rue de Rivoli 10, Paris, France' });
    expect(q.country).toBe('FR');
    expect(q.countryNameOnly).toBe(false);
    expect(q.tokens.map((t) => t.text)).not.toContain('france');
  });
});
