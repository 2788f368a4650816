import { describe, expect, it } from 'vitest';
import { charLength, validateCredentials, validateElement } from '../../src/contract/validate.ts';
import { LINES_PARAMS, SEARCH_PARAMS } from '../../src/contract/params.ts';

const lines = { countrycode: 'DE', sendercountrycode: 'FR' };

describe('validateElement: lines', () => {
  it('accepts the two mandatory codes alone and types the request', () => {
    const v = validateElement('lines', { ...lines, maxcharsperline: '35', zip: '10117' });
    expect(v).toEqual({
      ok: true,
      request: { countrycode: 'DE', sendercountrycode: 'FR', zip: '10117', maxcharsperline: 35 },
      options: { requestproof: false, returnavailablecredits: false },
    });
  });

  it.each(['countrycode', 'sendercountrycode'])('answers 428 when %s is missing, null or empty', (name) => {
    for (const bad of [undefined, null, '']) {
      const v = validateElement('lines', { ...lines, [name]: bad });
      expect(v).toEqual({ ok: false, error: { errorcode: 428, errormessage: expect.stringContaining(`'${name}'`) } });
    }
  });

  it('checks mandatory parameters before anything else (428 wins over 412)', () => {
    const v = validateElement('lines', { countrycode: 'DEU', zip: 5 });
    expect(v.ok === false && v.error.errorcode).toBe(428);
  });

  it('answers 412 for every string parameter at min-1 and max+1, and accepts min and max', () => {
    for (const def of LINES_PARAMS.filter((d) => d.type === 'string')) {
      const at = (n: number) => validateElement('lines', { ...lines, [def.name]: 'x'.repeat(n) });
      expect(at(def.max).ok, `${def.name} at max`).toBe(true);
      expect(at(def.max + 1), `${def.name} at max+1`).toMatchObject({ ok: false, error: { errorcode: 412 } });
      if (def.min > 0 && !def.required) {
        expect(at(def.min).ok, `${def.name} at min`).toBe(true);
        expect(at(def.min - 1), `${def.name} at min-1`).toMatchObject({ ok: false, error: { errorcode: 412 } });
      }
    }
  });

  it('checks maxcharsperline as an integer 20..80, from a number or a digit string', () => {
    for (const ok of [20, 80, '20', ' 44 ']) expect(validateElement('lines', { ...lines, maxcharsperline: ok }).ok).toBe(true);
    for (const bad of [19, 81, '19', '81', 40.5, '4O', '', true, [40]]) {
      expect(validateElement('lines', { ...lines, maxcharsperline: bad }), String(bad)).toMatchObject({ ok: false, error: { errorcode: 412 } });
    }
  });

  it('answers 412 for a value of the wrong type and names the parameter', () => {
    const v = validateElement('lines', { ...lines, zip: 10117 });
    expect(v).toEqual({ ok: false, error: { errorcode: 412, errormessage: "Parameter 'zip' must be a string; got number." } });
  });

  it('counts characters, not UTF-16 units: 50 emoji fit a 50-character zip', () => {
    expect(charLength('😀'.repeat(50))).toBe(50);
    expect(validateElement('lines', { ...lines, zip: '😀'.repeat(50) }).ok).toBe(true);
    expect(validateElement('lines', { ...lines, zip: '😀'.repeat(51) }).ok).toBe(false);
  });

  it('rejects an element that is not an object with 412', () => {
    for (const bad of [null, [], 'DE', 3]) {
      expect(validateElement('lines', bad)).toMatchObject({ ok: false, error: { errorcode: 412 } });
    }
  });
});

describe('validateElement: search and common options', () => {
  it('accepts an empty search (all parameters optional) and locale of length 0..5', () => {
    expect(validateElement('search', {}).ok).toBe(true);
    expect(validateElement('search', { locale: '' }).ok).toBe(true);
    expect(validateElement('search', { locale: 'de-CH' }).ok).toBe(true);
    expect(validateElement('search', { locale: 'de-CHx' }).ok).toBe(false);
  });

  it('has 1..255 for every other search parameter', () => {
    for (const def of SEARCH_PARAMS.filter((d) => d.name !== 'locale')) {
      expect(validateElement('search', { [def.name]: '' }).ok, def.name).toBe(false);
      expect(validateElement('search', { [def.name]: 'a'.repeat(255) }).ok, def.name).toBe(true);
      expect(validateElement('search', { [def.name]: 'a'.repeat(256) }).ok, def.name).toBe(false);
    }
  });

  it('reads requestproof, returnavailablecredits and responseformat, and rejects other values', () => {
    const v = validateElement('search', { requestproof: '1', returnavailablecredits: '0', responseformat: 'XML' });
    expect(v).toMatchObject({ ok: true, options: { requestproof: true, returnavailablecredits: false, responseformat: 'xml' } });
    expect(validateElement('search', { requestproof: '2' })).toMatchObject({ ok: false, error: { errorcode: 412 } });
    expect(validateElement('search', { requestproof: '11' })).toMatchObject({ ok: false, error: { errorcode: 412 } });
    expect(validateElement('search', { responseformat: 'csv' })).toMatchObject({ ok: false, error: { errorcode: 412 } });
    expect(validateElement('search', { responseformat: 'ya' })).toMatchObject({ ok: false, error: { errorcode: 412 } });
  });
});

describe('validateElement: one request shape per op', () => {
  // the engines read a request's fields at one place each: every request of an op holds the same
  // keys in the same order (absent ones undefined), whatever the element gave and in whatever order
  it('gives every lines request the keys of the lines table, in its order', () => {
    const a = validateElement('lines', { zip: '10117', ...lines, street: 'Unter den Linden' });
    const b = validateElement('lines', { ...lines, maxcharsperline: 40 });
    const names = LINES_PARAMS.map((d) => d.name);
    expect(a.ok && Object.keys(a.request)).toEqual(names);
    expect(b.ok && Object.keys(b.request)).toEqual(names);
    expect(b.ok && b.request.street).toBe(undefined);
    expect(JSON.stringify(b.ok && b.request)).toBe('{"countrycode":"DE","sendercountrycode":"FR","maxcharsperline":40}');
  });
  it('gives every search request the keys of the search table, then prefer_country', () => {
    const a = validateElement('search', { city: 'Wien', address: 'x' });
    const b = validateElement('search', { street: 'Ring', prefer_country: 'at' });
    const names = [...SEARCH_PARAMS.map((d) => d.name), 'prefer_country'];
    expect(a.ok && Object.keys(a.request)).toEqual(names);
    expect(b.ok && Object.keys(b.request)).toEqual(names);
  });
});

describe('validateCredentials', () => {
  const license = 'ABCDE-FGHIJ-KLMNO-PQRST-UVWXY';
  const guid = '0192f0c4-7d1e-7a3b-9c2d-1e2f3a4b5c6d';
  it('accepts well-formed credentials', () => {
    expect(validateCredentials({ license, guid })).toEqual({ ok: true, credentials: { license, guid } });
  });
  it('answers 401 when either is missing or empty', () => {
    expect(validateCredentials({ guid })).toMatchObject({ ok: false, error: { errorcode: 401 } });
    expect(validateCredentials({ license, guid: '' })).toMatchObject({ ok: false, error: { errorcode: 401 } });
  });
  it('answers 412 for a wrong length', () => {
    expect(validateCredentials({ license: license + 'Z', guid })).toMatchObject({ ok: false, error: { errorcode: 412 } });
    expect(validateCredentials({ license, guid: 'x'.repeat(29) })).toMatchObject({ ok: false, error: { errorcode: 412 } });
    expect(validateCredentials({ license, guid: 'x'.repeat(41) })).toMatchObject({ ok: false, error: { errorcode: 412 } });
    expect(validateCredentials({ license, guid: 'x'.repeat(30) }).ok).toBe(true);
  });
});

describe('validateElement: prefer_country (extension, issue 18)', () => {
  it('accepts a destination code in any case, upper-cases it, and lets the element win over the defaults', () => {
    expect(validateElement('search', { address: 'x', prefer_country: 'de' })).toMatchObject({ ok: true, request: { prefer_country: 'DE' } });
    expect(validateElement('search', { address: 'x' }, { prefer_country: 'AT' })).toMatchObject({ ok: true, request: { prefer_country: 'AT' } });
    expect(validateElement('search', { address: 'x', prefer_country: 'FR' }, { prefer_country: 'AT' })).toMatchObject({ ok: true, request: { prefer_country: 'FR' } });
    const none = validateElement('search', { address: 'x', prefer_country: '' });
    // (every request holds each key of its op, undefined when absent: one shape, see REQUEST_SHAPES)
    expect(none.ok && none.request.prefer_country).toBe(undefined);
  });
  it('answers 412 (ADDR_ERR_INVALID_PARAMETER) for a code that is no destination, or not a string', () => {
    for (const v of ['XX', 'US', 'DEU', 'Germany', 7]) {
      const r = validateElement('search', { address: 'x', prefer_country: v });
      expect(r).toMatchObject({ ok: false, error: { errorcode: 412 } });
      expect(!r.ok && r.error.errormessage).toContain('prefer_country');
    }
  });
});
