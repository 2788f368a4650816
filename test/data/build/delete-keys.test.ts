/** The symmetric-delete keys from the interned bytes equal the definition (keys built as strings). */
import { describe, expect, it } from 'vitest';
import { deleteKeyHashes, deleteKeysOfText } from '../../../src/data/build/delete-keys.ts';

const enc = new TextEncoder();
const both = (text: string) => {
  const fast: number[] = [], def: number[] = [];
  const n = deleteKeyHashes(enc.encode(text), fast);
  const m = deleteKeysOfText(text, def);
  return { fast, def, n, m };
};

describe('delete keys', () => {
  it('gives the definition\'s hashes, in its order, for ASCII, Latin, Greek, CJK, runs and lone surrogates', () => {
    const words = ['vaduz', 'walle', 'aaaa', 'aaab', 'baaa', 'abab', 'mississippi', 'strasse', 'łódź', 'ßßßß', 'αθήνα', 'Αθήναα',
      'københavn', '東京都港区', 'ab\u00e9\u00e9\u00e9cd', '\ufffd\ufffdab', 'x'.repeat(300), 'é'.repeat(40) + 'a', '1234a', 'a1234'];
    for (const w of words) {
      const { fast, def, n, m } = both(w);
      expect(fast, w).toEqual(def);
      expect(n, w).toBe(m);
    }
  });

  it('makes none for a token under four code units or of ASCII digits only, as the definition', () => {
    for (const w of ['abc', 'äöü', '1234', '0000000', '東京都']) expect(both(w), w).toMatchObject({ n: 0, m: 0, fast: [] });
    expect(both('１２３４').n).toBeGreaterThan(0); // full-width digits are not \d
  });

  it('takes the definition for characters beyond U+FFFF and for tokens over 1 kB', () => {
    for (const w of ['ab😀cd', '𝔄𝔅𝔆𝔇', 'é'.repeat(600)]) {
      const { fast, def } = both(w);
      expect(fast, w).toEqual(def);
    }
  });

  it('agrees on random words over a small alphabet (many runs)', () => {
    let seed = 7;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const alphabet = ['a', 'b', 'é', 'ł', 'ω', '東', '-', '1'];
    for (let i = 0; i < 2000; i++) {
      let w = '';
      for (let k = 0, len = 1 + Math.floor(rnd() * 12); k < len; k++) w += alphabet[Math.floor(rnd() * alphabet.length)];
      expect(both(w).fast, w).toEqual(both(w).def);
    }
  });
});
