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
/** Words after which a number is not a house number (ordinal streets: "83 street", "9e arrondissement"). */
const STREET_AFTER_NUMBER = /^(?:st|nd|rd|th|street|avenue|ave|arrondissement)$/i;
/** Words before a number that make it part of a road's name ("Highway 72", "Interstate 35"). */
const ROAD_BEFORE_NUMBER = /^(?:highway|hwy|interstate|route|rte|fm|us|ca|sr|rn|ss|i)$/i;
/** Road names that a number completes (not state codes: `Oakland CA 94789` is a ZIP code). */
const ROAD_NAME_BEFORE = /^(?:highway|hwy|interstate|route|rte|fm)$/i;
/** Words marking the next number as the house number ("nr. 9", "No 5", "д. 10"). */
const NUMBER_MARK = /^(?:nr|no|n°|num|д)\.?$/i;
/** A street type at the start or end of a word group ("Rua …", "… Straße"), or a direction. */
const STREET_WORD = /^(?:rua|calle|carrer|rue|via|viale|avenida|avenue|av|strada|ulica|ul|ulitsa|n|s|e|w|ne|nw|se|sw)$|(?:stra(?:ss|ß)e|str|weg|gasse|vej|gade|laan|straat|gatan|vagen|vägen|street|road|st|rd|ave|blvd|dr|lane|ln|way)$/i;

export function parseComponents(input: string): Components {
  const found: string[] = [];
  let text = extractAdditional(input, found);
  const pcs = findPostcodes(text);
  let postcode = '';
  if (pcs.length > 0) {
    // the last code; one with letters or a hyphen (a shape no house number has) before a bare number
    const distinctive = pcs.filter((p) => /[A-Za-z-]/.test(p.raw) && !/^\d{1,5}-?[A-Za-z]$/.test(p.raw));
    const digits = pcs.filter((p) => (/^\d{4,6}$/.test(p.raw.replace(' ', '')) || /^\d{5}-\d{4}$/.test(p.raw)) && !streetNumber(text, p.start, p.end));
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
    const isNum = (i: number) => HN_RE.test(words[i] ?? '') && !STREET_AFTER_NUMBER.test(words[i + 1] ?? '') && !ROAD_BEFORE_NUMBER.test(words[i - 1] ?? '');
    const marked = words.findIndex((w, i) => NUMBER_MARK.test(w) && HN_RE.test(words[i + 1] ?? ''));
    if (marked >= 0) { hn = words[marked + 1]!; break; }
    const lettersElsewhere = parts.some((p) => p !== part && /\p{L}/u.test(p));
    // European order: street words, then the number ("Am Nordkanal 11", "25 Straße 50")
    // a part that starts with a number: the Anglo-French order (`123 Main St`, `1 bis Rue …`)
    let at = isNum(0) && (words.length > 1 || (lettersElsewhere && /^\d{1,4}[a-z]?$/i.test(words[0]!))) ? 0 : -1;
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

/**
 * A bare number with a postcode's shape that is the house number: first in the text before a
 * direction or street words (`1900 SE F St`, `18312 SE Brooklyn Ct`), or right after a street
 * name in a group with no other number (`rua godinho de faria 1200 porto`).
 */
function streetNumber(text: string, start: number, end: number): boolean {
  const before = text.slice(0, start);
  const group = before.slice(before.lastIndexOf(',') + 1).trim().split(/\s+/).filter(Boolean);
  const after = text.slice(end).split(',')[0]!.trim().split(/\s+/).filter(Boolean);
  if (STREET_AFTER_NUMBER.test(after[0] ?? '') || ROAD_NAME_BEFORE.test(group.at(-1) ?? '')) return true;
  // first in the text with another number after it in the same group: `1111 MD 760`
  if (before.trim() === '' && after.some((w) => /^\d/.test(w))) return true;
  if (before.trim() === '' && after.length >= 2 && (STREET_WORD.test(after[0]!) || after.some((w) => STREET_WORD.test(w) && w.length > 1))) return true;
  if (group.length >= 2 && STREET_WORD.test(group[0]!) && !group.some((w) => /\d/.test(w)) && after.length >= 1) return true;
  return false;
}
