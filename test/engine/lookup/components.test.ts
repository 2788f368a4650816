import { describe, expect, it } from 'vitest';
import { parseComponents } from '../../../src/engine/lookup/components.ts';

describe('free-text components without the index', () => {
  const cases: [string, string, string][] = [
    ['Am Nordkanal 11, 47877 Willich', '11', '47877'],
    ['Kaschk Bar, Linienstraße 40 10119 Berlin', '40', '10119'],
    ['123 Main St Apt 456 Oakland CA 94789', '123', '94789'],
    ['Kerkstraat 12, 1017 GC Amsterdam', '12', '1017gc'],
    ['1 bis Rue Ballainvilliers 63000 Clermont-Ferrand', '1bis', '63000'],
    ['Beethovenova 641/9, Brno', '6419', ''], // the comparable key of 641/9
    ['Highway 72', '', ''],
    ['1900 SE F ST, SAN FRANCISCO', '1900', ''],
  ];
  for (const [input, hn, pc] of cases) {
    it(input, () => {
      const r = parseComponents(input);
      expect(r.housenumber).toBe(hn);
      expect(r.postcode).toBe(pc);
    });
  }
  it('takes units and extras out of the house number', () => {
    for (const [input, extra] of [['Hauptstraße 5 Top 3', 'Top 3'], ['Hauptstraße 5, Stiege 2', 'Stiege 2'], ['Main St 5 Apt 4B', 'Apt 4B'], ['c/o Müller, Hauptstraße 5', 'c/o Müller'], ['Hauptstraße 5, Whg. 12', 'Whg. 12']] as const) {
      const r = parseComponents(input);
      expect(r.housenumber, input).toBe('5');
      expect(r.additional, input).toBe(extra);
    }
  });
  it('a word that merely starts like a designator stays a word ("Steinest", "Topweg")', () => {
    expect(parseComponents('Im Steinest 14, 9497 Triesenberg').additional).toBe('');
    expect(parseComponents('Topweg 3').housenumber).toBe('3');
  });
});
