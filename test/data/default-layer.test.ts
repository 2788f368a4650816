import { describe, expect, it } from 'vitest';
import { readDefaultLayer } from '../../src/data/readers/default-layer.ts';
import type { Place, PostcodeEntry } from '../../src/data/source-types.ts';

describe('the embedded default layer reader', () => {
  it('streams places and postcodes of the 34 destinations with their ISO 3166-2 state', async () => {
    const countries = new Set<string>();
    let places = 0, postcodes = 0, rejected = 0, withState = 0;
    let berlin: Place | undefined, p10115: PostcodeEntry | undefined;
    await readDefaultLayer({
      address() {}, line() {}, admin() {},
      reject() { rejected++; },
      place(p) { places++; countries.add(p.country); if (p.stateCode) withState++; if (p.country === 'DE' && p.name === 'Berlin') berlin = { ...p }; },
      postcode(p) { postcodes++; if (p.country === 'DE' && p.code === '10115') p10115 ??= { ...p }; },
    });
    expect(countries.size).toBe(34);
    expect(places).toBeGreaterThan(90_000);
    expect(postcodes).toBeGreaterThan(450_000);
    expect(rejected).toBe(0);
    expect(withState / places).toBeGreaterThan(0.95);
    expect(berlin).toMatchObject({ stateCode: 'DE-BE', type: 'city' });
    expect(p10115).toMatchObject({ place: 'Berlin', stateCode: 'DE-BE' });
    expect(Math.abs(p10115!.lat - 52.53)).toBeLessThan(0.05);
  });
  it('a large place keeps its own name where another of its names is a neighbouring locality\'s (scripts/gen-default-layer.ts)', async () => {
    const au = new Map<string, Place>();
    await readDefaultLayer({
      address() {}, line() {}, admin() {}, reject() {}, postcode() {},
      place(p) { if (p.country === 'AU' && ['Launceston', 'Patersonia', 'Darwin'].includes(p.name)) au.set(p.name, { ...p }); },
    });
    // Launceston, TAS: GeoNames lists Patersonia (its first name, a locality 17 km away)
    expect(au.get('Launceston')).toMatchObject({ stateCode: 'AU-TAS' });
    expect(au.get('Launceston')!.altNames ?? []).not.toContain('Patersonia');
    expect(au.has('Patersonia')).toBe(false);
    // Darwin: GeoNames lists Palmerston, a city of its own 20 km away
    expect(au.get('Darwin')!.altNames ?? []).not.toContain('Palmerston');
  });
  it("gives Malta's local councils their ISO 3166-2 codes, not GeoNames' own numbering", async () => {
    const mt = new Map<string, string | undefined>();
    await readDefaultLayer({
      address() {}, line() {}, admin() {}, reject() {}, place() {},
      postcode(p) { if (p.country === 'MT' && ['MDN', 'ISL', 'VCT', 'RBT', 'SLM', 'ZBG'].includes(p.code.slice(0, 3))) mt.set(`${p.code.slice(0, 3)} ${p.place}`, p.stateCode); },
    });
    // ISO 3166-2:MT (as CLDR has it): 20 Isla (Senglea), 29 Mdina, 45 Rabat Gozo (Victoria), 46 Rabat Malta, 56 Sliema
    const byPlace = (name: string) => [...mt.entries()].find(([k]) => k.endsWith(' ' + name))?.[1];
    expect(byPlace('Mdina')).toBe('MT-29');
    expect(byPlace('Isla')).toBe('MT-20');
    expect(byPlace('Victoria')).toBe('MT-45');
    expect(byPlace('Rabat')).toBe('MT-46');
    expect(byPlace('Sliema')).toBe('MT-56');
  });
});
