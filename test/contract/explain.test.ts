/**
 * The explanation's forms (src/contract/explain.ts): the XML element, the two CSV cells, and the
 * `explain` option of validation (search only; '', 0, 1; absent unless asked for).
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { explainCsvCells, type Explanation } from '../../src/contract/explain.ts';
import { renderXmlRecord } from '../../src/contract/render-xml.ts';
import { validateElement } from '../../src/contract/validate.ts';

const EXPLAIN: Explanation = {
  parts: [
    { input: 'Pariss', status: 'corrected', field: 'city', became: 'paris', why: 'typo' },
    { input: 'a<b & "c"', status: 'ignored', field: '', became: '', why: 'nothing in the answer explains it' },
    { input: '', status: 'inferred', field: 'country_iso_2', became: 'FR', why: 'the country of the place found' },
    { input: '75008', status: 'matched', field: 'zip', became: '75008', why: '' },
  ],
  deductions: [
    { code: 'TYPO', points: 23.3, why: 'a word matched only as a misspelling (one edit away) ("pariss")' },
    { code: 'AMBIGUOUS_STREET', points: 15, why: 'an equally good street in another town' },
  ],
};

describe('explanation forms', () => {
  it('XML: an <explain> element after the record\'s keys; a parser reads back every value', () => {
    const body = renderXmlRecord({ city: 'Paris', relevance: '62', explain: EXPLAIN });
    expect(body).toContain('<relevance>62</relevance><explain><part ');
    const x = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, isArray: (n) => n === 'part' || n === 'deduction' }).parse(body);
    expect(x.response.explain.part).toEqual(EXPLAIN.parts);
    expect(x.response.explain.deduction).toEqual(EXPLAIN.deductions.map((d) => ({ ...d, points: String(d.points) })));
  });

  it('a record without an explanation renders as before', () => {
    expect(renderXmlRecord({ city: 'Paris', explain: 'text' })).toContain('<explain>text</explain>');
  });

  it('CSV: parts and deductions as compact strings', () => {
    expect(explainCsvCells(EXPLAIN)).toEqual([
      'corrected:city:Pariss=paris(typo); ignored::a<b & "c"=; inferred:country_iso_2:=FR(the country of the place found); matched:zip:75008=75008',
      'TYPO:-23.3; AMBIGUOUS_STREET:-15',
    ]);
    expect(explainCsvCells({ parts: [], deductions: [] })).toEqual(['', '']);
  });
});

describe('the explain option', () => {
  it('search: 1 asks, 0 and \'\' do not, anything else is 412', () => {
    const on = validateElement('search', { city: 'Paris', explain: '1' });
    expect(on).toMatchObject({ ok: true, options: { explain: true } });
    for (const v of ['0', '']) {
      const off = validateElement('search', { city: 'Paris', explain: v });
      expect(off.ok && 'explain' in off.options).toBe(false);
    }
    const none = validateElement('search', { city: 'Paris' });
    expect(none.ok && Object.keys(none.options)).toEqual(['requestproof', 'returnavailablecredits']);
    const bad = validateElement('search', { city: 'Paris', explain: '2' });
    expect(bad).toMatchObject({ ok: false, error: { errorcode: 412 } });
  });

  it('lines has no explanation: the key is ignored like any unknown key', () => {
    const v = validateElement('lines', { countrycode: 'DE', sendercountrycode: 'DE', explain: 'yes' });
    expect(v.ok && 'explain' in v.options).toBe(false);
  });
});
