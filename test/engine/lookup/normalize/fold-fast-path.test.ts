/**
 * foldText and foldTokens take a table-driven path for ASCII and Latin text (normalize.ts);
 * it must give exactly what the definition (foldFull: NFKD, no marks, lower case, SPECIAL
 * letters, separators) gives, since index and query must fold alike.
 */
import { describe, expect, it } from 'vitest';
import { foldFull, foldText, foldTokens } from '../../../../src/engine/lookup/normalize/normalize.ts';
import { mulberry32 } from '../../../../eval/support/prng.ts';

function tokensByDefinition(s: string): string[] {
  const f = foldFull(s);
  return f === '' ? [] : f.split(' ');
}

describe('folding fast path', () => {
  it('folds every character up to U+0400 as the definition does, alone and between letters', () => {
    for (let c = 0; c < 0x400; c++) {
      const ch = String.fromCharCode(c);
      for (const s of [ch, `a${ch}b`, `${ch}${ch}`, ` ${ch}1`, `É${ch}ß`]) {
        expect(foldText(s), `U+${c.toString(16)} in ${JSON.stringify(s)}`).toBe(foldFull(s));
        expect(foldTokens(s)).toEqual(tokensByDefinition(s));
      }
    }
  });

  it('folds random Latin text as the definition does', () => {
    const rnd = mulberry32(3);
    for (let i = 0; i < 20_000; i++) {
      let s = '';
      const n = Math.floor(rnd() * 24);
      for (let j = 0; j < n; j++) s += String.fromCharCode(rnd() < 0.3 ? 32 + Math.floor(rnd() * 96) : Math.floor(rnd() * 0x250));
      expect(foldText(s)).toBe(foldFull(s));
      expect(foldTokens(s)).toEqual(tokensByDefinition(s));
    }
  });

  it('keeps the full path for compatibility characters, marks and other scripts', () => {
    for (const s of ['ﬁ Straße', 'Ｍünchen １２', 'µ', 'e\u0301cole', 'Αθήνα', 'Москва', 'ŉ', '½', 'Ø 😀']) {
      expect(foldText(s)).toBe(foldFull(s));
    }
    expect(foldText('  Rue de l’Église 12-14, 75001 PARIS ')).toBe('rue de l eglise 12 14 75001 paris');
    expect(foldTokens('Ærøskøbing, Øster-Gade')).toEqual(['aeroskobing', 'oster', 'gade']);
  });
});
