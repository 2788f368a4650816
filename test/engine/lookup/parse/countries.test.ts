/** Country names and recognition for the lookup come from the pinned CLDR table, never from Intl. */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countryName, countryOfCode, iso3Of, resolveCountry } from '../../../../src/engine/lookup/parse/countries.ts';
import { parseRequest } from '../../../../src/engine/lookup/parse/parse.ts';
import { ISO_3166_1_ALPHA2 } from '../../../../src/engine/lines/iso3166.ts';

describe('country names (pinned table)', () => {
  it('names a country in the locale language, English otherwise', () => {
    expect(countryName('DK', 'da')).toBe('Danmark');
    expect(countryName('DE', 'fr-CH')).toBe('Allemagne');
    expect(countryName('LI', 'zh')).toBe('列支敦士登');
    expect(countryName('LI', 'fo')).toBe('Liktinstein');
    expect(countryName('PL', 'pt')).toBe('Polónia'); // pt = European Portuguese, as for /address/lines
    expect(countryName('FR', 'xx')).toBe('France');
    expect(countryName('FR', '')).toBe('France');
    expect(countryName('XK', undefined)).toBe('Kosovo');
  });
  it('has an English name for every ISO 3166-1 code that has an alpha-3', () => {
    for (const cc of ISO_3166_1_ALPHA2) if (iso3Of(cc)) expect(countryName(cc, 'en'), cc).not.toBe('');
  });
  it('recognises typed names in the destinations\' languages', () => {
    expect(resolveCountry('Dänemark')).toBe('DK');
    expect(resolveCountry('tyskland')).toBe('DE');
    expect(resolveCountry('Liechtenstein')).toBe('LI');
    expect(resolveCountry('Rakúsko')).toBe('AT');
    expect(resolveCountry('Atlantis')).toBe('');
  });
  it('reads an alpha-3 code written in capitals as a part of its own, never a word in lower case or a two-letter one', () => {
    expect(countryOfCode(' NLD ')).toBe('NL');
    expect(countryOfCode('Nld')).toBe('');
    expect(countryOfCode('SA')).toBe(''); // South Australia, not Saudi Arabia
    expect(countryOfCode('QLD')).toBe('');
    expect(parseRequest({ address: 'Utrecht, NLD' })).toMatchObject({ country: 'NL', countryNameOnly: false });
    expect(parseRequest({ address: 'SWE' })).toMatchObject({ country: 'SE', countryNameOnly: true });
    expect(parseRequest({ address: 'Ham, Fra' }).country).toBe('');
  });
  it('the lookup engine does not call Intl at run time', () => {
    for (const dir of ['src/engine/lookup', 'src/engine/index']) {
      // the lookup's stages are folders: every module below them
      for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((x) => x.endsWith('.ts'))) {
        const code = readFileSync(`${dir}/${f}`, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
        expect(/\bIntl\./.test(code), `${dir}/${f}`).toBe(false);
      }
    }
  });
});
