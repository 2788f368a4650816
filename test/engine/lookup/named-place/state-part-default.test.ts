/**
 * Issue 18, on the embedded default: free text whose last part is a state's name (`City, State`)
 * is asked with that part as the state (named-place/state-part.ts), and a structured `state` is
 * matched by any of the state's names; a state alone in the `state` field is answered as the state.
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { lookup, lookupExplained } from '../../../../src/engine/lookup/index.ts';
import type { SearchRequest } from '../../../../src/contract/requests.ts';
import { typeWordsAround } from '../../../../src/engine/lookup/named-place/state-table.ts';

loadDefaultIndexBeforeAll();

type Want = Partial<Record<'country_iso_2' | 'city' | 'state_code' | 'relevance' | 'zip', string>>;

describe('a state named in the text\'s last part', () => {
  const CASES: [SearchRequest, Want][] = [
    // its local name: the city in it, the words explained (was relevance 50)
    [{ address: 'Launceston, Tasmania' }, { country_iso_2: 'AU', state_code: 'AU-TAS', city: 'Launceston', relevance: '100' }],
    [{ address: 'Köln, Nordrhein-Westfalen' }, { country_iso_2: 'DE', state_code: 'DE-NW', city: 'Köln', relevance: '100' }],
    // without its type word, as Poles write it
    [{ address: 'Toruń, kujawsko-pomorskie' }, { country_iso_2: 'PL', state_code: 'PL-04', city: 'Toruń', relevance: '100' }],
    // an English name: the state, not the Italian village Bavaria (was the village, relevance 50)
    [{ address: 'Munich, Bavaria' }, { country_iso_2: 'DE', state_code: 'DE-BY', city: 'München' }],
    [{ address: 'Munich, Bavaria, Germany' }, { country_iso_2: 'DE', state_code: 'DE-BY', city: 'München' }],
    // words that also name a country end the state's name (was South Shields, GB, and Colombia)
    [{ address: 'Sydney, New South Wales' }, { country_iso_2: 'AU', state_code: 'AU-NSW', city: 'Sydney', relevance: '100' }],
    [{ address: 'Richmond, British Columbia' }, { country_iso_2: 'CA', state_code: 'CA-BC', city: 'Richmond', relevance: '100' }],
    // the state decides between homonyms abroad (was an empty answer: Córdoba is also in Argentina)
    [{ address: 'Córdoba, Andalucía' }, { country_iso_2: 'ES', state_code: 'ES-AN', city: 'Córdoba', relevance: '100' }],
    // a county (province, département, county) as the last part: `Town, Province`, not the
    // province's capital (was Madrid, Murcia, Pisa with the town's words unexplained)
    [{ address: 'Móstoles, Madrid' }, { country_iso_2: 'ES', city: 'Móstoles', relevance: '100' }],
    [{ address: 'Cascina, Pisa' }, { country_iso_2: 'IT', city: 'Cascina', relevance: '100' }],
    [{ address: 'Guildford, Surrey' }, { country_iso_2: 'GB', city: 'Guildford', relevance: '100' }],
    [{ address: 'Aix-en-Provence, Bouches-du-Rhône' }, { country_iso_2: 'FR', city: 'Aix-en-Provence', relevance: '100' }],
    // a place named in full in an earlier part over one a later part names only by another name or
    // its first words (was Luzern: GeoNames' untagged alternates give it `Canton`)
    [{ address: 'Fribourg, Canton de Fribourg' }, { country_iso_2: 'CH', city: 'Fribourg' }],
    // a type word the data's names lack, before or after the name (was the canton's capital or
    // Luzern, relevance 23–33)
    [{ address: 'Winterthur, Kanton Zürich' }, { country_iso_2: 'CH', state_code: 'CH-ZH', city: 'Winterthur', relevance: '100' }],
    [{ address: 'Thun, Canton de Berne' }, { country_iso_2: 'CH', state_code: 'CH-BE', city: 'Thun', relevance: '100' }],
    [{ address: 'Sitten, Canton du Valais' }, { country_iso_2: 'CH', state_code: 'CH-VS', city: 'Sion' }],
    [{ address: 'Iqaluit, Nunavut Territory' }, { country_iso_2: 'CA', state_code: 'CA-NU', city: 'Iqaluit', relevance: '100' }],
    [{ city: 'Thun', state: 'Canton de Berne' }, { country_iso_2: 'CH', state_code: 'CH-BE', city: 'Thun', relevance: '100' }],
    // the official name, of several type words (was Navarra, PT, at 5; ASTURIAS, AR; the city São Paulo)
    [{ address: 'Pamplona, Comunidad Foral de Navarra' }, { country_iso_2: 'ES', state_code: 'ES-NC', city: 'Pamplona', relevance: '100' }],
    [{ address: 'Oviedo, Principado de Asturias' }, { country_iso_2: 'ES', state_code: 'ES-AS', city: 'Oviedo', relevance: '100' }],
    [{ address: 'Campinas, Estado de São Paulo' }, { country_iso_2: 'BR', state_code: 'BR-SP', city: 'Campinas', relevance: '100' }],
    [{ address: 'Leipzig, Freistaat Sachsen' }, { country_iso_2: 'DE', state_code: 'DE-SN', city: 'Leipzig', relevance: '100' }],
    [{ address: 'Comunidad Foral De Navarra, ES' }, { country_iso_2: 'ES', state_code: 'ES-NC', city: '', relevance: '100' }],
    // the state's name and code after a city of the state's name: not Assis, SP, whose GeoNames
    // alternates `Assis Sao Paulo` and `Assis SP` held the three words (was relevance 90)
    [{ address: 'Sao Paulo SP' }, { country_iso_2: 'BR', state_code: 'BR-SP', city: 'São Paulo', relevance: '100' }],
    [{ address: 'São Paulo, SP' }, { country_iso_2: 'BR', state_code: 'BR-SP', city: 'São Paulo', relevance: '100' }],
    // the state's name alone may still name its namesake by another name
    [{ address: 'Jezersko' }, { country_iso_2: 'SI', state_code: 'SI-163' }],
    // the state written in two languages, as the data's names are (was the state's capital)
    [{ address: 'Асеновград, Пловдив / Plovdiv' }, { country_iso_2: 'BG', state_code: 'BG-16', city: 'Асеновград / Asenovgrad' }],
    [{ address: 'Dupnitsa, Кюстендил / Kjustendil' }, { country_iso_2: 'BG', state_code: 'BG-10' }],
  ];
  for (const [q, want] of CASES) it(JSON.stringify(q), () => expect(lookup(index, q)).toMatchObject(want));

  it('explains the words as the state', () => {
    const { explain } = lookupExplained(index, { address: 'Launceston, Tasmania' });
    expect(explain.parts).toContainEqual(expect.objectContaining({ input: 'Tasmania', status: 'matched', field: 'state', why: 'a state named in the text' }));
    const county = lookupExplained(index, { address: 'Cascina, Pisa' });
    expect(county.explain.parts).toContainEqual(expect.objectContaining({ input: 'Pisa', status: 'matched', field: 'county', why: 'a county named in the text' }));
  });

  it('a last part that is also the city keeps the text\'s own answer (the Land Salzburg explains no more than the city)', () => {
    expect(lookup(index, { address: 'Salzburg' })).toMatchObject({ country_iso_2: 'AT', city: 'Salzburg' });
    expect(lookup(index, { address: '5020, Salzburg' })).toMatchObject({ country_iso_2: 'AT', city: 'Salzburg' });
  });
});

describe('a state or county named by the last words of a part, with no comma', () => {
  const CASES: [SearchRequest, Want][] = [
    // the town, not the state's capital of the same name (was Québec, Madrid, Bern, Salzburg, São
    // Paulo, Rio de Janeiro, Buenos Aires at relevance 35–75, the town's words unexplained)
    [{ address: 'Montréal (Québec)' }, { country_iso_2: 'CA', state_code: 'CA-QC', city: 'Montréal', relevance: '100' }],
    [{ address: 'Sherbrooke Québec' }, { country_iso_2: 'CA', state_code: 'CA-QC', city: 'Sherbrooke', relevance: '100' }],
    [{ address: 'Getafe (Madrid)' }, { country_iso_2: 'ES', city: 'Getafe', relevance: '100' }],
    [{ address: 'Köniz (Bern)' }, { country_iso_2: 'CH', state_code: 'CH-BE', city: 'Köniz', relevance: '100' }],
    [{ address: 'Hallein Salzburg' }, { country_iso_2: 'AT', city: 'Hallein', relevance: '100' }],
    [{ address: 'Campinas São Paulo' }, { country_iso_2: 'BR', state_code: 'BR-SP', city: 'Campinas', relevance: '100' }],
    [{ address: 'Niterói Rio de Janeiro' }, { country_iso_2: 'BR', state_code: 'BR-RJ', city: 'Niterói', relevance: '100' }],
    [{ address: 'Mar del Plata Buenos Aires' }, { country_iso_2: 'AR', city: 'Mar del Plata', relevance: '100' }],
    // a county (was the province's capital)
    [{ address: 'Cascina (Pisa)' }, { country_iso_2: 'IT', city: 'Cascina', relevance: '100' }],
    // nothing answered it (Emmen is also Dutch, and Luzern a city)
    [{ address: 'Emmen Luzern' }, { country_iso_2: 'CH', state_code: 'CH-LU', city: 'Emmen', relevance: '100' }],
    // the state in two languages within the part, as the data writes Bulgaria's (was Plovdiv)
    [{ address: 'Асеновград (Пловдив / Plovdiv)' }, { country_iso_2: 'BG', state_code: 'BG-16', city: 'Асеновград / Asenovgrad' }],
    // a place whose name ends with a state's or county's name stays itself
    [{ address: 'Reggio Calabria' }, { country_iso_2: 'IT', city: 'Reggio Calabria', relevance: '100' }],
    [{ address: 'Villanueva de Córdoba' }, { country_iso_2: 'ES', city: 'Villanueva de Córdoba', relevance: '100' }],
    [{ address: 'Rio de Janeiro' }, { country_iso_2: 'BR', city: 'Rio de Janeiro', relevance: '100' }],
    // a place whose name holds a street's word (was Stolberg (Rheinland), NW, at 15, with or
    // without the comma: `weinstraße` ruled the state part out)
    [{ address: 'Neustadt an der Weinstraße, Rheinland-Pfalz' }, { country_iso_2: 'DE', state_code: 'DE-RP', city: 'Neustadt an der Weinstraße', relevance: '100' }],
    [{ address: 'Neustadt an der Weinstraße Rheinland-Pfalz' }, { country_iso_2: 'DE', state_code: 'DE-RP', city: 'Neustadt an der Weinstraße', relevance: '100' }],
    // a street's words do not name a village in the state: the state's city, as before
    [{ address: 'ulica Tadeusza Kościuszki, Łódź' }, { country_iso_2: 'PL', city: 'Łódź' }],
    [{ address: 'ulica Tadeusza Kościuszki 18, Łódź' }, { country_iso_2: 'PL', city: 'Łódź' }],
    // the city field of an export that holds the state too (were the capital or no answer)
    [{ city: 'Montréal (Québec)' }, { country_iso_2: 'CA', state_code: 'CA-QC', city: 'Montréal', relevance: '100' }],
    [{ city: 'Getafe (Madrid)', zip: '28901' }, { country_iso_2: 'ES', city: 'Getafe', relevance: '100' }],
    [{ city: 'Hallein Salzburg' }, { country_iso_2: 'AT', city: 'Hallein', relevance: '100' }],
    // its code or sigla explained as the state's, as in free text (was relevance 50)
    [{ city: 'Köniz BE' }, { country_iso_2: 'CH', state_code: 'CH-BE', city: 'Köniz', relevance: '100' }],
    [{ city: 'Milano (MI)' }, { country_iso_2: 'IT', city: 'Milano', relevance: '100' }],
    [{ city: 'Rio de Janeiro' }, { country_iso_2: 'BR', city: 'Rio de Janeiro', relevance: '100' }],
    // the words read as the answer's own city stay so: the postal place Bucureşti 68 is not taken
    // for the state Bucharest
    [{ address: '013456 Bucharest' }, { country_iso_2: 'RO', city: 'București', zip: '013456' }],
  ];
  for (const [q, want] of CASES) it(JSON.stringify(q), () => expect(lookup(index, q)).toMatchObject(want));
});

describe('words of the text that name the answer\'s state', () => {
  const CASES: [SearchRequest, Want][] = [
    // its abbreviation, as Australians, Canadians and the Swiss write it (`NSW 2000` was read as a
    // Maltese postcode: an empty answer)
    [{ address: 'Sydney NSW 2000' }, { country_iso_2: 'AU', state_code: 'AU-NSW', city: 'Sydney', relevance: '100' }],
    [{ address: 'Melbourne VIC 3000' }, { country_iso_2: 'AU', state_code: 'AU-VIC', city: 'Melbourne', relevance: '100' }],
    [{ address: 'Lausanne VD' }, { country_iso_2: 'CH', state_code: 'CH-VD', city: 'Lausanne', relevance: '100' }],
    // its name without a comma
    [{ address: 'München Bayern' }, { country_iso_2: 'DE', state_code: 'DE-BY', city: 'München', relevance: '100' }],
    // its name and its code (was relevance 67: the name was left unexplained)
    [{ address: 'Launceston, Tasmania TAS' }, { country_iso_2: 'AU', state_code: 'AU-TAS', city: 'Launceston', relevance: '100' }],
    [{ address: 'Regensburg, Bayern BY' }, { country_iso_2: 'DE', state_code: 'DE-BY', city: 'Regensburg', relevance: '100' }],
    // its code written with dots (was relevance 25–33: the letters were left unexplained)
    [{ address: 'Vancouver, B.C.' }, { country_iso_2: 'CA', state_code: 'CA-BC', city: 'Vancouver', relevance: '100' }],
    [{ address: 'Sydney N.S.W.' }, { country_iso_2: 'AU', state_code: 'AU-NSW', city: 'Sydney', relevance: '100' }],
  ];
  for (const [q, want] of CASES) it(JSON.stringify(q), () => expect(lookup(index, q)).toMatchObject(want));

  it('are explained as the state; a word inside a street\'s name is not', () => {
    const { explain } = lookupExplained(index, { address: 'Sydney NSW 2000' });
    expect(explain.parts).toContainEqual(expect.objectContaining({ input: 'NSW', status: 'matched', field: 'state' }));
    const street = lookupExplained(index, { address: '3 Msida Sea Front, Msida' });
    expect(street.explain.parts.filter((p) => p.field === 'state' && p.input !== '')).toEqual([]);
  });
});

describe('the state field', () => {
  it('is matched by any of the state\'s names (`Bavaria` is Bayern): no deduction', () => {
    const { record, explain } = lookupExplained(index, { city: 'München', state: 'Bavaria' });
    expect(record).toMatchObject({ state_code: 'DE-BY', city: 'München', relevance: '100' });
    expect(explain.deductions.map((d) => d.code)).not.toContain('STATE_NOT_MATCHED');
  });

  it('decides between places of the name: the one in the state, with no homonym guess', () => {
    expect(lookup(index, { city: 'Córdoba', state: 'Andalucía' })).toMatchObject({ country_iso_2: 'ES', city: 'Córdoba', relevance: '100' });
    expect(lookup(index, { city: 'Amstetten', state: 'Niederösterreich' })).toMatchObject({ country_iso_2: 'AT', city: 'Amstetten', relevance: '100' });
    // over a far more important place named by its first words
    expect(lookup(index, { city: 'Frankfurt', state: 'Brandenburg' })).toMatchObject({ state_code: 'DE-BB', city: 'Frankfurt (Oder)' });
  });

  it('alone, answers the state (was an empty answer)', () => {
    expect(lookup(index, { state: 'Marche' })).toMatchObject({ country_iso_2: 'IT', state_code: 'IT-57', city: '', relevance: '100' });
    expect(lookup(index, { state: 'Bavaria', country: 'DE' })).toMatchObject({ state_code: 'DE-BY', city: '' });
  });
});

describe('typeWordsAround', () => {
  it('drops a leading type word with its joining words, or a trailing one', () => {
    expect(typeWordsAround('kanton zurich')).toBe('zurich');
    expect(typeWordsAround('canton de vaud')).toBe('vaud');
    expect(typeWordsAround('state of sao paulo')).toBe('sao paulo');
    expect(typeWordsAround('lodz voivodeship')).toBe('lodz');
    expect(typeWordsAround('nunavut territory')).toBe('nunavut');
    expect(typeWordsAround('comunidad foral de navarra')).toBe('navarra');
    expect(typeWordsAround('estado do rio de janeiro')).toBe('rio de janeiro');
  });
  it('leaves a name without one, or one that is only type and joining words', () => {
    expect(typeWordsAround('vaud')).toBeUndefined();
    expect(typeWordsAround('canton')).toBeUndefined();
    expect(typeWordsAround('canton de')).toBeUndefined();
    expect(typeWordsAround('rhineland palatinate')).toBeUndefined();
  });
});

describe("a state's name written without its conjunction", () => {
  it("is the state (GeoNames' `Castilla - Leon`)", () => {
    expect(lookup(index, { address: 'Valladolid, Castilla - Leon' })).toMatchObject({ city: 'Valladolid', state_code: 'ES-CL', relevance: '100' }); // was León, 33
    expect(lookup(index, { address: 'Castilla León' })).toMatchObject({ city: '', state_code: 'ES-CL' });
  });
});

describe("Italy's province sigla after the town", () => {
  const relevance = (address: string) => lookup(index, { address }).relevance;
  it('is explained as the answer\'s province (province-codes.generated.ts)', () => {
    expect(lookup(index, { address: 'Siena SI' })).toMatchObject({ city: 'Siena', county: 'Siena', relevance: '100' }); // was 50
    expect(relevance('Milano (MI)')).toBe('100');
    expect(Number(relevance('Via Roma 1, 53100 Siena SI'))).toBeGreaterThanOrEqual(Number(relevance('Via Roma 1, 53100 Siena')));
  });
  it("explains no other province's sigla", () => {
    expect(Number(relevance('Siena MI'))).toBeLessThan(90);
  });
});

describe("France's département number after the town (departement.ts)", () => {
  const relevance = (address: string) => lookup(index, { address }).relevance;
  it("is explained as the answer's département (its postcode's first digits)", () => {
    expect(lookup(index, { address: 'Lyon 69' })).toMatchObject({ city: 'Lyon', relevance: '100' }); // was 50
    expect(relevance('Bordeaux (33)')).toBe('100');
    expect(relevance('Ajaccio (2A)')).toBe('100'); // Corsica: 2A, 20000–20199
    expect(relevance('Bastia 2B')).toBe('100');
  });
  it("explains no other département's number, nor a house number after a street", () => {
    expect(Number(relevance('Lyon 75'))).toBeLessThan(90);
    // (12 is Aveyron's number too: here it is the house number)
    expect(relevance('Avenue de Fareyres 12, 12300 Decazeville')).toBe(relevance('Avenue de Fareyres 14, 12300 Decazeville'));
  });
  it('chooses among homonyms (departement.ts): Gourdon in the Lot, not those of 06, 07, 71', () => {
    expect(lookup(index, { address: 'Gourdon 46' })).toMatchObject({ city: 'Gourdon', county: 'Lot', relevance: '100' }); // was no answer
    expect(lookup(index, { address: 'Croix (90)' })).toMatchObject({ city: 'Croix', county: 'Territoire de Belfort' }); // was Croix, Nord
  });
  it('leaves a district number read as such (`Marseille 13`: the 13th arrondissement)', () => {
    expect(lookup(index, { address: 'Marseille 13' }).city).toBe('Marseille 13');
  });
});
