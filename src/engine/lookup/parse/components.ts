/**
 * The index-free part of the free-text parse: which words are the postcode and which the house
 * number, pelias/parser style (one classifier per component, then a choice between them):
 *  - units and extras (`Top 3`, `Stiege 2`, `Whg. 5`, `Apt 4`, `Ste 1`, `#104`, floors, `c/o …`)
 *    are taken out first, so they are never read as the house number;
 *  - a code after a postcode marker (`〒`, `CEP`, `PLZ`, `ZIP`, `Postcode:`) is the postcode;
 *    otherwise postcodes are the spans with some destination's shape (postcodes.ts); the last one
 *    wins, a code with letters or a hyphen before a bare number;
 *  - the house number is the number next to the street: the last number of the first part in
 *    the European order (`Linienstraße 40`), the first word in the Anglo-French order
 *    (`123 Main St`), keeping `641/9`, `92-10`, `2455-B`, `16 1/2` and `16½` whole; the number
 *    after a marker (`nr. 9`, `No 5`, `д. 10`, `# 63-64`);
 *  - Chinese and Japanese text, written without spaces, has its own number forms (`6号`,
 *    `3番2号`, `25-1`), read by cjkHouseNumber.
 * The lookup itself does not need this (it lets the index decide each token's role); it is the
 * parse the evaluation measures and what a caller without an index can use.
 */
import { houseNumberKey, postcodeKey } from '../normalize/normalize.ts';
import { extractAdditional } from './parse.ts';
import { findPostcodes } from './postcodes.ts';

export interface Components { housenumber: string; postcode: string; additional: string }

/** A house number word: `12`, `12a`, `1bis`, `16½`, `641/9`, `92-10`, `2455-B`. */
const HN_RE = /^(?:\d{1,5}(?:[a-z]{1,2}|bis|ter|[½¼¾])?|\d{1,5}[-/]\d{1,5}[a-z]?|\d{1,5}-[a-z])$/i;
/** Words after which a number is not a house number (ordinals: "83 rd", "9e arrondissement"). */
const ORDINAL_AFTER_NUMBER = /^(?:st|nd|rd|th|arrondissement)$/i;
/** Words after which a postcode-shaped number is no code but a street's number or name (`10001 Avenue`, "83 street"). */
const STREET_AFTER_NUMBER = /^(?:st|nd|rd|th|street|avenue|ave|arrondissement)$/i;
/** Words before a number that make it part of a road's name ("Highway 72", "Interstate 35"). */
const ROAD_BEFORE_NUMBER = /^(?:highway|hwy|interstate|route|rte|fm|us|ca|sr|rn|ss|i)$/i;
/** Road names that a number completes (not state codes: `Oakland CA 94789` is a ZIP code). */
const ROAD_NAME_BEFORE = /^(?:highway|hwy|interstate|route|rte|fm)$/i;
/** Words marking the next number as the house number ("nr. 9", "No 5", "д. 10", "# 63-64"). */
const NUMBER_MARK = /^(?:nr|no|n°|num|д|#)\.?$/i;
/** A street type at the start or end of a word group ("Rua …", "… Straße"), or a direction. */
const STREET_WORD = /^(?:rua|calle|carrer|rue|via|viale|avenida|avenue|av|strada|ulica|ul|ulitsa|n|s|e|w|ne|nw|se|sw)$|(?:stra(?:ss|ß)e|str|weg|gasse|vej|gade|laan|straat|gatan|vagen|vägen|street|road|st|rd|ave|blvd|dr|lane|ln|way)$/i;
/**
 * A street type written as a whole word (not the end of a compound like `Broadway`): a number
 * followed by nothing but such a word is the street's name (`25 Straße`, `25 Strada`), as in the
 * numbered streets of planned districts, not a house number.
 */
const BARE_STREET_TYPE = /^(?:stra(?:ss|ß)e|str\.?|strada|street|st\.?|road|rd\.?|avenue|ave\.?|rue|calle|via|weg|gasse|vej|gade|laan|straat|gata|gate|gatan|vägen|vagen|ulica|ul\.?|ulitsa|lane|drive|boulevard|blvd\.?)$/i;
/**
 * Spanish street types. In Spanish addresses the letter written apart after the number is the
 * door (`puerta`: `Calle Mayor 20, 3º B`, or without the floor `Calle Principal 20 B`); a letter
 * that belongs to the number is written with it (`20B`) or as `bis`.
 */
const SPANISH_STREET_TYPE = /^(?:calle|c\/|avenida|avda\.?|paseo|plaza|pza\.?|camino|carretera|ctra\.?|ronda|travesía|travesia|glorieta)$/i;
/** A fraction written after the number (US and Caribbean half numbers: `16 1/2 Windward Road`). */
const FRACTION = /^[13]\/[24]$/;
/**
 * Postcode markers and the code after them. The marker settles a code that no destination's
 * shape covers (`〒113-0001`, Japan) or that could be a house number; digits only (a code with
 * letters has a shape of its own). Not `CP`/`C.P.`: Italian and Swiss `C.P.` is a post-office box.
 */
const MARKED_POSTCODE = /(?:〒|(?<![\p{L}\d])(?:cep|plz|psč|zip(?:\s?code)?|post(?:al)?\s?code|code\s+postal|c[óo]digo\s+postal)(?:\s*[:.])?)\s*(\d{3}\s\d{2}|\d{2,5}(?:-\d{3,4})?)(?!\d)/iu;
/** Chinese and Japanese script (written without spaces between words). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

export function parseComponents(input: string): Components {
  const found: string[] = [];
  let text = extractAdditional(input, found);
  let postcode = '';
  const marked = MARKED_POSTCODE.exec(text);
  if (marked) {
    postcode = postcodeKey(marked[1]!);
    text = `${text.slice(0, marked.index)} , ${text.slice(marked.index + marked[0].length)}`;
  } else {
    const pcs = findPostcodes(text);
    // the last code; one with letters or a hyphen (a shape no house number has) before a bare number
    const distinctive = pcs.filter((p) => /[A-Za-z-]/.test(p.raw) && !/^\d{1,5}-?[A-Za-z]$/.test(p.raw));
    const digits = pcs.filter((p) => (/^\d{4,6}$/.test(p.raw.replace(' ', '')) || /^\d{5}-\d{4}$/.test(p.raw)) && !streetNumber(text, p.start, p.end, p.raw));
    const pick = distinctive.at(-1) ?? digits.at(-1);
    if (pick) {
      postcode = postcodeKey(pick.raw.replace(/^[A-Z]{1,2}-(?=\d)/i, ''));
      text = `${text.slice(0, pick.start)} , ${text.slice(pick.end)}`;
    }
  }
  if (CJK.test(text)) return { housenumber: houseNumberKey(cjkHouseNumber(text)), postcode, additional: found.join(', ') };
  // `#` glued to the street's number (`Cra 18#63-64`) is a word of its own, the number mark
  const parts = (text.includes('#') ? text.replace(/#/g, ' # ') : text).split(/[,\n]/).map((p) => p.trim()).filter(Boolean);
  let hn = '';
  for (const part of parts) {
    const words = part.split(/\s+/);
    // a dash before the first word of a part is a list bullet or a stray separator (`-1 Priory Road`)
    words[0] = words[0]!.replace(/^[-–—•]+(?=\d)/, '');
    // a number before `Avenue`/`Street` is the house number (`25 Avenue Foch`) unless the type
    // word stands alone (`83 street`, `25 Straße 50`: namesStreet)
    const isNum = (i: number) => HN_RE.test(words[i] ?? '') && !ORDINAL_AFTER_NUMBER.test(words[i + 1] ?? '') && !ROAD_BEFORE_NUMBER.test(words[i - 1] ?? '') && !namesStreet(words, i);
    const mark = words.findIndex((w, i) => NUMBER_MARK.test(w) && HN_RE.test(words[i + 1] ?? ''));
    if (mark >= 0) {
      // after a marker the number's extent is known: a capital letter written apart is its
      // suffix (`# 63-64 B`); a lower-case one may be a word (Spanish `y`, Italian `e`)
      const nx = words[mark + 2] ?? '';
      hn = words[mark + 1]! + (/^[A-Z]$/.test(nx) ? ` ${nx}` : '');
      break;
    }
    const lettersElsewhere = parts.some((p) => p !== part && /\p{L}/u.test(p));
    // European order: street words, then the number ("Am Nordkanal 11", "25 Straße 50")
    // a part that starts with a number: the Anglo-French order (`123 Main St`, `1 bis Rue …`)
    let at = isNum(0) && (words.length > 1 || (lettersElsewhere && /^\d{1,4}[a-z½¼¾]?$/i.test(words[0]!))) ? 0 : -1;
    if (at < 0) for (let i = words.length - 1; i >= 1; i--) if (isNum(i) && /\p{L}/u.test(words[i - 1]!)) { at = i; break; }
    if (at >= 0) {
      // "2 a", "1 bis", "16 1/2": the suffix is part of the number (kept as typed, so that the
      // key is the one of the typed span); a lone letter only at the end of its part, and not
      // after a Spanish street (there it is the door)
      const nx = words[at + 1] ?? '';
      const letter = /^[a-z]$/i.test(nx) && at + 2 >= words.length && !SPANISH_STREET_TYPE.test(words[0]!);
      hn = words[at]! + (/^(?:bis|ter)$/i.test(nx) || FRACTION.test(nx) || letter ? ` ${nx}` : '');
      if (/^[a-z]$/i.test(nx) && at + 2 >= words.length && !letter) found.push(nx);
      break;
    }
  }
  return { housenumber: hn ? houseNumberKey(hn) : '', postcode, additional: found.join(', ') };
}

/** The number at i with only a bare street type after it (and then a number or nothing) names the street. */
function namesStreet(words: string[], i: number): boolean {
  return BARE_STREET_TYPE.test(words[i + 1] ?? '') && (i + 2 >= words.length || HN_RE.test(words[i + 2]!));
}

/**
 * The house number in Chinese or Japanese text (digits may be full-width; NFKC folds them):
 *  - Japanese block numbering: `3番2号` (banchi and gō, `3番地2号`, `3番地の2`) after the chōme;
 *  - `6号` (Chinese street number), but not `5号楼` (building), `8号室` (room), floors or units;
 *  - a hyphenated number after the block or street name (`高畠町25-1`, `千代田１−１`), not a
 *    `NNN-NNNN` Japanese postcode.
 * Each pattern starts only at the first digit of a run (`(?<!\d)`), so a long run costs one pass.
 */
const BAN_GO = /(?<!\d)\d+番地?(?:の?\d+号?)?/u;
const GO = /(?<!\d)\d+号(?![楼樓栋棟室层層房门門单單座])/u;
const HYPHENATED = /(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])\d+(?:-\d+){1,2}(?![\d-])/gu;
function cjkHouseNumber(text: string): string {
  // the dashes typed in Japanese numbers (minus sign, hyphen, the long-vowel mark ー) are hyphens
  const t = text.normalize('NFKC').replace(/(?<=\d)[−‐‑–ー](?=\d)/g, '-');
  const bg = BAN_GO.exec(t) ?? GO.exec(t);
  if (bg) return bg[0];
  for (const m of t.matchAll(HYPHENATED)) if (!/^\d{3}-\d{4}$/.test(m[0])) return m[0];
  return '';
}

/**
 * A bare number with a postcode's shape that is the house number: first in the text before a
 * direction or street words (`1900 SE F St`, `18312 SE Brooklyn Ct`), or right after a street
 * name in a group with no other number (`rua godinho de faria 1200`). A number with a leading
 * zero is always a code (no house number is written `01200`).
 */
function streetNumber(text: string, start: number, end: number, raw: string): boolean {
  if (raw.startsWith('0')) return false;
  const before = text.slice(0, start);
  const group = before.slice(before.lastIndexOf(',') + 1).trim().split(/\s+/).filter(Boolean);
  const after = text.slice(end).split(',')[0]!.trim().split(/\s+/).filter(Boolean);
  if (STREET_AFTER_NUMBER.test(after[0] ?? '') || ROAD_NAME_BEFORE.test(group.at(-1) ?? '')) return true;
  // first in the text with another number after it in the same group: `1111 MD 760`
  if (before.trim() === '' && after.some((w) => /^\d/.test(w))) return true;
  if (before.trim() === '' && after.length >= 2 && (STREET_WORD.test(after[0]!) || after.some((w) => STREET_WORD.test(w) && w.length > 1))) return true;
  // right after a street that starts with its type word, with no number of its own: the
  // European order puts the house number there, the postcode after it or before the town;
  // house numbers in that order have at most four digits (`Rue de Rivoli 75001` is a code)
  if (group.length >= 2 && STREET_WORD.test(group[0]!) && !group.some((w) => /\d/.test(w)) && raw.length <= 4) return true;
  return false;
}
