/**
 * Set "misspelt places": a place's name with one typing mistake, as people type into a search box
 * (`Hambrug`, `Barcleona, ES`, `Kauppakatu 5, Jyväsylä`). Added 2026-11-27, its rule fixed before
 * its first run and before the engine read a misspelt place in free text (the structured city
 * field already took typo neighbours; free text answered nothing).
 *
 * The mistake: in the name's longest word (letters only, MIN_WORD letters or more; the first word
 * among equals), never in its first letter, one of four kinds chosen by the FNV-1a hash of the
 * case's id: two neighbouring letters swapped (`Hambrug`), a letter left out (`Hamburg` →
 * `Hambug`), a letter typed twice (`Hammburg`), or a letter replaced by its left or right
 * neighbour on a QWERTY keyboard (`Hanburg`; letters a–z only). Which letter: the hash again. A
 * misspelling that is itself a name of a place of the 34 destinations (the places set's rule:
 * GeoNames name, ASCII name, or a chosen place's names) is not asked: it names that place.
 *
 * Patterns (free text, no country unless the pattern gives one):
 *  - `local name, one typo`, `English name, one typo` (when the English name is another word):
 *    the places set's chosen places (the 30 most populous of each destination, the capitals);
 *    truth = the place the name spelt right expects by the places set's rule (`Londob` expects
 *    London, GB, also when it was London, CA, whose name was misspelt; fixed after the first run,
 *    before any engine change: that run took the place whose name was misspelt);
 *  - `one typo, country code`: the misspelt local name and the ISO code (`Hambrug, DE`); truth =
 *    the place itself, as the places set's `local name, country code`;
 *  - `street + misspelt city`: the addresses set's sampled references, the city misspelt and no
 *    postcode (`Vesterbrogade 3, Købnhavn V`); truth = the reference's city.
 *
 * The half is taken from the id's FNV-1a hash with its bits mixed (split.ts `mixedHalfOf`), not
 * the low bit alone (the other sets' split, kept as it was fixed).
 */
import { SUPPORTED_DESTINATIONS } from '../../../src/engine/lines/iso3166.ts';
import { foldText } from '../../../src/engine/lookup/normalize/normalize.ts';
import { addressSources, ADDRESSES_PER_SOURCE, sampledRows, streetPart } from './addresses.ts';
import { makeCase, type PeopleCase } from './cases.ts';
import { chosenPlaces, expectedPlace, truthOf } from './places.ts';
import { fnv1a, mixedHalfOf } from './split.ts';

export const MISSPELT_SET = 'misspelt places';
/** A word shorter than this is not misspelt: one mistake in a short word often makes another word. */
export const MIN_WORD = 5;
export const TYPO_KINDS = ['swap', 'drop', 'double', 'neighbour key'] as const;
type TypoKind = (typeof TYPO_KINDS)[number];

const KEY_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** The key left (`side` 0) or right (1) of lower-case letter `c` on a QWERTY keyboard, else the other side, else undefined. */
function neighbourKey(c: string, side: number): string | undefined {
  for (const row of KEY_ROWS) {
    const i = row.indexOf(c);
    if (i < 0) continue;
    const order = side === 0 ? [i - 1, i + 1] : [i + 1, i - 1];
    for (const j of order) if (j >= 0 && j < row.length) return row[j];
  }
  return undefined;
}

/** The longest word of `text` (letters only), as [start, end); undefined when none has MIN_WORD letters. */
function longestWord(text: string): [number, number] | undefined {
  let best: [number, number] | undefined;
  for (const m of text.matchAll(/\p{L}+/gu)) {
    const len = [...m[0]].length;
    if (len >= MIN_WORD && (!best || len > best[1] - best[0])) best = [m.index, m.index + m[0].length];
  }
  return best;
}

/**
 * `text` with one mistake of `kind` in its longest word, the letter chosen by `h`; undefined when
 * the word is too short or the kind cannot apply (no two different neighbours to swap, no a–z
 * letter to replace).
 */
export function misspell(text: string, kind: TypoKind, h: number): string | undefined {
  const w = longestWord(text);
  if (!w) return undefined;
  const letters = [...text.slice(w[0], w[1])];
  const at = (n: number) => 1 + (h % n); // never the first letter
  const out = [...letters];
  switch (kind) {
    case 'swap': {
      // positions i (1 ≤ i < len-1) whose letter differs from the next one
      const can = letters.map((_, i) => i).filter((i) => i >= 1 && i < letters.length - 1 && letters[i] !== letters[i + 1]);
      if (can.length === 0) return undefined;
      const i = can[h % can.length]!;
      [out[i], out[i + 1]] = [out[i + 1]!, out[i]!];
      break;
    }
    case 'drop': out.splice(at(letters.length - 1), 1); break;
    case 'double': { const i = at(letters.length - 1); out.splice(i, 0, letters[i]!); break; }
    case 'neighbour key': {
      const can = letters.map((_, i) => i).filter((i) => i >= 1 && neighbourKey(letters[i]!, 0) !== undefined);
      if (can.length === 0) return undefined;
      const i = can[h % can.length]!;
      out[i] = neighbourKey(letters[i]!, (h >>> 8) & 1)!;
      break;
    }
  }
  const word = out.join('');
  return foldText(word) === foldText(letters.join('')) ? undefined : text.slice(0, w[0]) + word + text.slice(w[1]);
}

/** The case's misspelling of `text`: the kind and letter by the hash of `id`; undefined when none applies or it names a place. */
function misspeltFor(id: string, text: string): string | undefined {
  const h = fnv1a(id);
  const kind = TYPO_KINDS[h % TYPO_KINDS.length]!;
  const q = misspell(text, kind, h >>> 2);
  return q !== undefined && !expectedPlace(q) ? q : undefined;
}

function withMixedHalf(c: PeopleCase): PeopleCase {
  return { ...c, half: mixedHalfOf(c.id) };
}

export function misspeltCases(perSource = ADDRESSES_PER_SOURCE): PeopleCase[] {
  const { byCountry, names } = chosenPlaces();
  const out: PeopleCase[] = [];
  for (const cc of SUPPORTED_DESTINATIONS) {
    for (const p of byCountry.get(cc) ?? []) {
      const n = names.get(p.id)!;
      const truth = truthOf(p, n.all);
      const asked: [string, string][] = [['local name, one typo', n.local]];
      if (foldText(n.english) !== foldText(n.local)) asked.push(['English name, one typo', n.english]);
      for (const [pattern, name] of asked) {
        const q = misspeltFor(`${p.id}:${pattern}`, name);
        // the place the name spelt right expects (the places set's rule: `London` is London, GB,
        // whichever London's name was misspelt)
        if (q) out.push(withMixedHalf(makeCase(MISSPELT_SET, `${p.id}:${pattern}:${q}`, cc, pattern, { address: q }, expectedPlace(name)?.truth ?? truth)));
      }
      const coded = misspeltFor(`${p.id}:one typo, country code`, n.local);
      if (coded) out.push(withMixedHalf(makeCase(MISSPELT_SET, `${p.id}:one typo, country code:${coded}`, cc, 'one typo, country code', { address: `${coded}, ${cc}` }, truth)));
    }
  }
  for (const src of addressSources()) {
    for (const t of sampledRows(src, perSource)) {
      const id = `${src.name}:${t.street}|${t.hn}|${t.city}:street + misspelt city`;
      const city = misspeltFor(id, t.city);
      if (!city) continue;
      out.push(withMixedHalf(makeCase(MISSPELT_SET, id, t.country, 'street + misspelt city', { address: `${streetPart(t)}, ${city}` }, {
        kind: 'area', country: t.country, city: t.city,
      })));
    }
  }
  return out;
}
