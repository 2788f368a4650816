/** foldedTokens(foldText(s)) is foldTokens(s): the build splits a text it folded already. */
import { describe, expect, it } from 'vitest';
import { foldedTokens } from '../../../src/data/build/folded-tokens.ts';
import { foldText, foldTokens } from '../../../src/engine/lookup/normalize/normalize.ts';

describe('folded tokens', () => {
  it('equal foldTokens of the text, on ASCII, Latin, other scripts, separators and empty texts', () => {
    const texts = ['Vaduz', 'Wien, Innere Stadt', "'s-Gravenhage", '  --  ', '', 'Łódź', 'São Paulo', 'Αθήνα', 'Москва-2', '東京都', 'Straße 5a',
      'µ-Gasse', 'ŉ test', 'Ǆemal', 'ﬁle', 'Ⅻ Bezirk', 'a\u0301b', 'X/Y\\Z', 'Sainte-Marie-aux-Mines (68)', 'A\u00a0B'];
    for (const t of texts) expect(foldedTokens(foldText(t)), t).toEqual(foldTokens(t));
  });

  it('agree on every character below U+0800 alone and between letters', () => {
    for (let c = 1; c < 0x800; c++) {
      const ch = String.fromCharCode(c);
      for (const t of [ch, `a${ch}b`, `${ch}${ch} X`]) expect(foldedTokens(foldText(t)), `U+${c.toString(16)}`).toEqual(foldTokens(t));
    }
  });
});
