/**
 * Stage 2 (parse): country names and codes in free text. The name written last is the country, an
 * earlier name of another country is a place's (`Salvador, Brasil`); a text that ends with a
 * country's two-letter code reads only that country's names as the country.
 */
import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';
describe('country names in free text', () => {
  it('takes the one written last as the country; an earlier name of another country is a place', () => {
    const q = parseRequest({ address: 'Salvador, Brasil' });
    expect(q.country).toBe('BR');
    expect(q.tokens.map((t) => t.text)).toEqual(['salvador']);
    expect(parseRequest({ address: 'Granada, España' }).country).toBe('ES');
    // before the end, only a destination's name is the country: another's is a place's word
    expect(parseRequest({ address: 'Salvador, Bahia' }).country).toBe('');
    expect(parseRequest({ address: 'Germany, Berlin' }).country).toBe('DE');
    expect(parseRequest({ address: 'Salvador, El Salvador' }).country).toBe('SV');
    const b = parseRequest({ address: 'Brasília, Brasil' });
    expect([b.country, b.tokens.map((t) => t.text)]).toEqual(['BR', ['brasilia']]);
  });

  it('with a two-letter code at the end: the code\'s own country by a name of its own part, the code put back otherwise', () => {
    const l = parseRequest({ address: 'Luxembourg, LU' });
    expect([l.country, l.countryNameOnly, l.tokens.map((t) => t.text)]).toEqual(['LU', true, ['luxembourg']]);
    const w = parseRequest({ address: 'Wien, Österreich, AT' });
    expect([w.country, w.tokens.map((t) => t.text)]).toEqual(['AT', ['wien']]);
    const s = parseRequest({ address: 'Salvador, BR' }); // not El Salvador: the code decides (country-code-part.ts)
    expect([s.country, s.tokens.map((t) => t.text)]).toEqual(['', ['salvador', 'br']]);
    const a = parseRequest({ address: 'South Australia, AU' }); // a state's name holding its country's
    expect([a.country, a.tokens.map((t) => t.text)]).toEqual(['', ['south', 'australia', 'au']]);
  });

  it("keeps a state's name that holds its country's name", () => {
    const q = parseRequest({ address: 'Lower Austria, Austria' });
    expect(q.tokens.map((t) => t.text)).toEqual(['lower', 'austria']);
    expect(q.countryWeight).toBe(0.5);
  });
});

describe("a saint's word", () => {
  it('looks up the place names that write it out, and `Sankt` the ones that abbreviate it', () => {
    const alts = (address: string) => parseRequest({ address }).tokens[0]!.alts;
    expect(alts('St Etienne')).toContain('saint'); // Saint-Étienne
    expect(alts('Ste Foy')).toContain('sainte');
    expect(alts('Sankt Moritz')).toContain('st'); // St. Moritz
    expect(alts('Saint-Denis')).toEqual(['saint']); // the written-out word looks up itself only
  });
});
