/**
 * Stage 9 on the embedded default (no ../shared needed): a place's name shared abroad, decided by
 * the query's other words when they name places in one country only (other-words-country.ts).
 */
import { describe, expect, it } from 'vitest';
import { defaultIndex as index, loadDefaultIndexBeforeAll } from '../../../helpers/default-index.ts';
import { lookup } from '../../../../src/engine/lookup/index.ts';

loadDefaultIndexBeforeAll();

const answer = (address: string) => {
  const r = lookup(index, { address });
  return `${r.city}|${r.country_iso_2}`;
};

describe("the query's other words choose among a name's countries", () => {
  it('takes the country where the qualifier names places (Halle is in DE, BE and NL; the Saale flows in DE)', () => {
    expect(answer('Halle Saale')).toBe('Halle|DE'); // answered nothing
    expect(answer('Halle/Saale')).toBe('Halle|DE');
    expect(answer('Halle an der Saale')).toBe('Halle|DE'); // the articles say nothing
  });
  it('leaves a name alone, and a word that names nothing, as before', () => {
    expect(answer('Halle')).toBe('Halle|DE'); // the more important Halle, as a guess
    expect(answer('Halle Qwzxy')).toBe('|');
  });
});
