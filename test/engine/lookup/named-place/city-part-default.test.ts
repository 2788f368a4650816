/**
 * Stage 9 on the embedded default (no ../shared needed): a city's part named with the city is
 * answered as the part, shown as the city's district (city-part.ts).
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';
import type { SearchRequest } from '../../../../src/contract/requests.ts';

loadDefaultIndexBeforeAll();

const answer = (q: SearchRequest | string) => {
  const r = lookup(index, typeof q === 'string' ? { address: q } : q);
  return `${r.city}|${r.district}|${r.state_code}|${r.relevance}`;
};

describe("a city's part named with the city", () => {
  it('answers the part as the district of the city, in either order (was the city at relevance 50)', () => {
    expect(answer('Berlin Neukölln')).toBe('Berlin|Neukölln|DE-BE|100');
    expect(answer('Neukölln, Berlin')).toBe('Berlin|Neukölln|DE-BE|100');
    expect(answer('Warszawa Mokotów')).toBe('Warszawa|Mokotów|PL-14|100');
    expect(answer('Kallio, Helsinki')).toBe('Helsinki|Kallio|FI-18|100');
    expect(answer('London Putney')).toBe('London|Putney|GB-ENG|100');
  });
  it("shows the city's name in the locale asked, and the part's point", () => {
    expect(answer({ address: 'Valby, København', locale: 'en' }).split('|').slice(0, 2)).toEqual(['Copenhagen', 'Valby']);
    const r = lookup(index, { address: 'Berlin Spandau' });
    expect(Number(r.longitude)).toBeLessThan(13.25); // Spandau lies west of Berlin's centre (13.40)
  });
  it('keeps a postal place that names both, and a town of its own beside a city', () => {
    expect(answer('Wien Favoriten')).toBe('Wien|Favoriten|AT-9|100'); // the post's `Wien, Favoriten`
    expect(answer('Düsseldorf Neuss').split('|')[1]).toBe(''); // Neuss: a postal town, 12 times smaller
    expect(answer('München Dachau').split('|')[1]).toBe(''); // 17 km away
  });
  it("reads a city named like the part's state as the state, unless the state is the city", () => {
    expect(answer('Guarulhos, Sao Paulo')).toBe('Guarulhos||BR-SP|100');
    expect(answer('Solna, Stockholm').split('|').slice(0, 2)).toEqual(['Solna', '']);
    expect(answer('Šempeter–Vrtojba').split('|').slice(0, 3)).toEqual(['', '', 'SI-183']); // the municipality's name
  });
});
