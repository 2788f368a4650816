import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FormError, MAX_FORM_FIELDS, parseForm } from '../../../src/adapters/http/form-body.ts';

const p = (s: string) => ({ ...parseForm(Buffer.from(s, 'latin1')) });

describe('form bodies', () => {
  it('decodes + and %XX, keeps repeated names as arrays, bare names as empty values', () => {
    expect(p('a=1&b=x+y%20z&c&&d=%C3%A9&a=2')).toEqual({ a: ['1', '2'], b: 'x y z', c: '', d: 'é' });
  });
  it('bare names before a later pair with `=` stay bare (the `=` is looked for within each pair only)', () => {
    expect(p('a&b&c=1=2&d')).toEqual({ a: '', b: '', c: '1=2', d: '' });
  });
  it('keeps invalid percent sequences literally and takes nested names literally', () => {
    expect(p('e=%zz&f=%4&g=%&a[b]=1')).toEqual({ e: '%zz', f: '%4', g: '%', 'a[b]': '1' });
  });
  it('rejects invalid UTF-8, raw or percent-encoded', () => {
    expect(() => p('x=%FF')).toThrow(FormError);
    expect(() => p('x=%ED%A0%80')).toThrow(/UTF-8/); // encoded surrogate
    expect(() => parseForm(Buffer.from([0x78, 0x3d, 0xc3]))).toThrow(FormError);
    expect(parseForm(Buffer.from('x=café', 'utf8')).x).toBe('café');
  });
  it('has no prototype: __proto__ and constructor are plain fields', () => {
    const f = parseForm(Buffer.from('__proto__=1&constructor=2'));
    expect(Object.getPrototypeOf(f)).toBeNull();
    expect(f['__proto__']).toBe('1');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it(`refuses more than ${MAX_FORM_FIELDS} fields`, () => {
    expect(() => p(Array.from({ length: MAX_FORM_FIELDS + 1 }, (_, i) => `f${i}=1`).join('&'))).toThrow(/more than/);
    expect(Object.keys(p(Array.from({ length: MAX_FORM_FIELDS }, (_, i) => `f${i}=1`).join('&')))).toHaveLength(MAX_FORM_FIELDS);
  });
  it('round-trips anything URLSearchParams encodes (property)', () => {
    fc.assert(fc.property(fc.dictionary(fc.string({ minLength: 1, unit: 'grapheme' }), fc.string({ unit: 'grapheme' })), (d) => {
      const body = new URLSearchParams(Object.entries(d)).toString();
      expect({ ...parseForm(Buffer.from(body)) }).toEqual({ ...d });
    }), { numRuns: 300 });
  });
});
