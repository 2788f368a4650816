/**
 * A city's district written by its number (src/engine/lookup/parse/district-number.ts): ordinals,
 * the word for a district, and the forms the post writes the number in.
 */
import { describe, expect, it } from 'vitest';
import { districtForms, districtPostcode, dropDistrictWords, isDistrictNumber, ordinalNumber } from '../../../../src/engine/lookup/parse/district-number.ts';
import { parseRequest, type QueryToken } from '../../../../src/engine/lookup/parse/parse.ts';

const token = (text: string): QueryToken => ({ text, field: 'free', alts: [text], hnLike: false, weight: 1 });

describe('ordinalNumber', () => {
  it('reads French, English and Roman ordinals of 1–20', () => {
    expect(['8e', '1er', '16eme', '2nd', '3rd', '20th', 'viiie', 'ixe', 'ier', 'xxe'].map((w) => ordinalNumber(w))).toEqual(['8', '1', '16', '2', '3', '20', '8', '9', '1', '20']);
  });
  it('answers nothing for plain numbers, words and ordinals beyond 20', () => {
    expect(['8', 'rue', 'e', '21e', 'xxie', 'mixe', 'the'].map((w) => ordinalNumber(w))).toEqual(['', '', '', '', '', '', '']);
  });
  it('reads a short Roman ordinal only when asked to (`vie`, `ive` are words), or when it has an X (`Paris XVe`)', () => {
    expect(['vie', 'ive', 'ixe', 'xvie', 've', 'xve', 'xie', 'xxe', 'xveme'].map((w) => ordinalNumber(w, false))).toEqual(['', '', '9', '16', '', '15', '11', '20', '15']);
    expect(ordinalNumber('vie')).toBe('6');
  });
});

describe('dropDistrictWords', () => {
  it('drops the word after a number or an ordinal and marks the number', () => {
    const free = ['paris', '8e', 'arrondissement'], segs = [0, 0, 0];
    expect([...dropDistrictWords(free, [segs])]).toEqual([1]);
    expect(free).toEqual(['paris', '8e']);
    expect(segs).toEqual([0, 0]);
  });
  it('keeps a word that the districts\' own names hold, and marks the number', () => {
    const free = ['budapest', '11', 'kerulet'];
    expect([...dropDistrictWords(free, [])]).toEqual([1]);
    expect(free).toEqual(['budapest', '11', 'kerulet']);
  });
  it('drops Bezirk after a number', () => {
    const free = ['wien', '3', 'bezirk'];
    expect([...dropDistrictWords(free, [])]).toEqual([1]);
    expect(free).toEqual(['wien', '3']);
  });
  it('keeps the word after anything else', () => {
    const free = ['rue', 'de', 'l', 'arrondissement'];
    expect(dropDistrictWords(free, []).size).toBe(0);
    expect(free).toHaveLength(4);
  });
});

describe('districtForms', () => {
  it("writes an ordinal's number, a single digit with the post's leading zero, and the Roman number", () => {
    expect(districtForms(token('8e'))).toEqual(['8', '08', 'viii']);
    expect(districtForms(token('8'))).toEqual(['08', 'viii']);
    expect(districtForms(token('16eme'))).toEqual(['16', 'xvi']);
    expect(districtForms(token('11'))).toEqual(['xi']);
    expect(districtForms(token('23'))).toEqual(['xxiii']);
    expect(districtForms(token('24'))).toEqual([]);
    expect(districtForms(token('6w'))).toEqual([]);
  });
});

describe('parseRequest', () => {
  it('makes a district number of a number the word for a district follows, in any part', () => {
    const q = parseRequest({ address: '9e arrondissement, Paris' });
    expect(q.tokens.map((t) => t.text)).toEqual(['9e', 'paris']);
    expect(q.tokens[0]).toMatchObject({ district: true, hnLike: false });
    expect(q.tokens[0]!.alts).toEqual(expect.arrayContaining(['9', '09']));
  });
  it('leaves a house number ending a street alone', () => {
    const q = parseRequest({ address: 'Rue de Rivoli 8' });
    expect(q.tokens.at(-1)!.district).toBeUndefined();
  });
  it('reads no number into a word that only looks like a short Roman ordinal', () => {
    expect(parseRequest({ address: 'Chemin de la Vie' }).tokens.at(-1)!.alts).not.toContain('6');
    expect(parseRequest({ address: 'Paris XVIe' }).tokens.at(-1)!.alts).toContain('16');
  });
});

describe('districtPostcode', () => {
  const tokens = (...texts: string[]) => texts.map(token);
  it("gives Vienna's postcode for the number right after `wien`, or marked as a district anywhere", () => {
    expect(districtPostcode(tokens('wien', '3'), 1)?.key).toBe('1030');
    expect(districtPostcode(tokens('wien', '23'), 1)?.key).toBe('1230');
    expect(districtPostcode([{ ...token('3'), district: true }, token('wien')], 0)).toMatchObject({ key: '1030', countries: ['AT'], token: 0 });
  });
  it('gives none for a number after another word, beyond the districts, or in another city', () => {
    expect(districtPostcode(tokens('wien', 'hauptstrasse', '3'), 2)).toBeUndefined();
    expect(districtPostcode(tokens('wien', '24'), 1)).toBeUndefined();
    expect(districtPostcode(tokens('graz', '3'), 1)).toBeUndefined();
  });
});

describe('isDistrictNumber', () => {
  it('reads a number that ends the query, or that only an Eircode follows (Ireland writes the district first)', () => {
    const q = (address: string) => parseRequest({ address });
    const at = (address: string, text: string) => { const p = q(address); return isDistrictNumber(p.tokens, p.tokens.findIndex((t) => t.text === text), p.hnKeys, p.zipCands); };
    expect(at('Dublin 4', '4')).toBe(true);
    expect(at('Dublin 4, D04 F5P2', '4')).toBe(true);
    // another country's code after it: a house number (`Hauptstraße 5, 10115`)
    expect(at('Hauptstraße 5, 10115', '5')).toBe(false);
    expect(at('Mitteldorf 27, 9490', '27')).toBe(false);
  });
});
