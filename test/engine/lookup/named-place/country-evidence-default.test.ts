/**
 * Issue 18 on the embedded default: strong evidence is never contradicted, a country chosen on
 * weak evidence or by the preferred country costs its documented points, and the lookup reports
 * the deductions it applied (score/deductions.ts).
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { lookup, lookupExplained } from '../../../../src/engine/lookup/index.ts';
import { COUNTRY_PREFERRED, COUNTRY_WEAK_EVIDENCE, DEDUCTIONS } from '../../../../src/engine/lookup/score/deductions.ts';

loadDefaultIndexBeforeAll();

describe('the country from the query evidence (embedded default)', () => {
  it('never answers a country the postcode shape and the street words rule out', () => {
    // was "Avenue Range", Australia: a place named by the type word, abroad
    for (const address of ['12 Avenue des Lilas 69004', 'avenue foch 75016', 'Boulevard Carnot 31000']) {
      const r = lookup(index, { address });
      expect(r.country_iso_2, address).not.toBe('AU');
      if (r.country_iso_2) expect(r.country_iso_2, address).toBe('FR');
    }
  });
  it('lets a type word choose among a code\'s countries, with the weak-evidence deduction', () => {
    const { record, explain } = lookupExplained(index, { address: 'Vesterbrogade 3500' });
    expect(record.country_iso_2).toBe('DK');
    expect(explain.deductions.map((d) => d.code)).toContain(COUNTRY_WEAK_EVIDENCE.code);
  });
  it('prefers the preferred country among those a query leaves open, and excludes none', () => {
    expect(lookup(index, { address: '3500' }).country_iso_2).toBe('');
    const pref = lookupExplained(index, { address: '3500', prefer_country: 'AT' });
    expect(pref.record.country_iso_2).toBe('AT');
    expect(pref.explain.deductions.map((d) => d.code)).toContain(COUNTRY_PREFERRED.code);
    expect(Number(pref.record.relevance)).toBe(100 - COUNTRY_PREFERRED.points);
    expect(lookup(index, { address: 'Velaines', prefer_country: 'BE' }).country_iso_2).toBe('BE');
    expect(lookup(index, { address: 'Velaines', prefer_country: 'FR' }).country_iso_2).toBe('FR');
    // another country's postcode is still answered: the preference only breaks ties
    expect(lookup(index, { address: '75008 Paris', prefer_country: 'DE' }).country_iso_2).toBe('FR');
    // and the spec's country stays a hard filter that the preference does not touch
    expect(lookup(index, { address: 'Velaines', country: 'FR', prefer_country: 'BE' }).country_iso_2).toBe('FR');
  });
  it('names every deduction once, with points and a reason', () => {
    const codes = DEDUCTIONS.map((d) => d.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const d of DEDUCTIONS) {
      expect(d.code).toMatch(/^[A-Z_]+$/);
      expect(d.points).toBeGreaterThanOrEqual(0);
      expect(d.why.length).toBeGreaterThan(10);
    }
  });
});
