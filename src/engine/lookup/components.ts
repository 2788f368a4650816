/**
 * The index-free part of the free-text parse: which words are the postcode and which the house
 * number, pelias/parser style (one classifier per component, then a choice between them):
 *  - units and extras (`Top 3`, `Stiege 2`, `Whg. 5`, `Apt 4`, `Ste 1`, `#104`, floors, `c/o …`)
 *    are taken out first, so they are never read as the house number;
 *  - postcodes are the spans with some destination's shape (postcodes.ts); the last one wins,
 *    a code with letters or a hyphen before a bare number;
 *  - the house number is the number next to the street: the last number of the first part in
 *    the European order (`Linienstraße 40`), the first word in the Anglo-French order
 *    (`123 Main St`), keeping `641/9`, `92-10` and `2455-B` whole.
 * The lookup itself does not need this (it lets the index decide each token's role); it is the
 * parse the evaluation measures and what a caller without an index can use.
 */
import { extractAdditional } from './parse.ts';
import { findPostcodes } from './postcodes.ts';
import { houseNumberKey, postcodeKey } from './normalize.ts';

export interface Components { housenumber: string; postcode: string; additional: string }

const HN_RE = /^(?:\d{1,5}(?:[a-z]{1,2}|bis|ter)?|\d{1,5}[-/]\d{1,5}[a-z]?|\d{1,5}-[a-z])$/i;
/** Words after which a number is not a house number (ordinal streets: "83 street", "26th"). */
const STREET_AFTER_NUMBER = /^(?:st|nd|rd|th|street|avenue|ave)$/i;

export function parseComponents(input: string): Components {
  const found: string[] = [];
  let text = extractAdditional(input, found);
  const pcs = findPostcodes(text);
  let postcode = '';
  if (pcs.length > 0) {
    // the last code; one with letters or a hyphen (a shape no house number has) before a bare number
    const distinctive = pcs.filter((p) => /[A-Za-z-]/.test(p.raw) && !/^\d{1,5}-?[A-Za-z]$/.test(p.raw));
    const digits = pcs.filter((p) => /^\d{4,6}$/.test(p.raw) || /^\d{5}-\d{4}$/.test(p.raw));
    const pick = distinctive.at(-1) ?? digits.at(-1);
    if (pick) {
      postcode = postcodeKey(pick.raw.replace(/^[A-Z]{1,2}-(?=\d)/i, ''));
      text = `${text.slice(0, pick.start)} , ${text.slice(pick.end)}`;
    }
  }
  const parts = text.split(/[,\n]/).map((p) => p.trim()).filter(Boolean);
  let hn = '';
  for (const part of parts) {
    const words = part.split(/\s+/);
    const isNum = (i: number) => HN_RE.test(words[i] ?? '') && !STREET_AFTER_NUMBER.test(words[i + 1] ?? '');
    // European order: street words, then the number ("Am Nordkanal 11", "25 Straße 50")
    // a part that starts with a number: the Anglo-French order (`123 Main St`, `1 bis Rue …`)
    let at = isNum(0) && (words.length > 1 || parts.indexOf(part) > 0) ? 0 : -1;
    if (at < 0) for (let i = words.length - 1; i >= 1; i--) if (isNum(i) && /\p{L}/u.test(words[i - 1]!)) { at = i; break; }
    if (at >= 0) {
      // "2 a", "1 bis": the suffix is part of the number
      const nx = words[at + 1] ?? '';
      hn = words[at]! + (/^(?:bis|ter)$/i.test(nx) || (/^[a-z]$/i.test(nx) && at + 2 >= words.length) ? nx : '');
      break;
    }
  }
  return { housenumber: hn ? houseNumberKey(hn) : '', postcode, additional: found.join(', ') };
}

