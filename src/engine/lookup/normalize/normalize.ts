/**
 * Stage 1 of the lookup pipeline, shared with the index build: Unicode and case folding, tokens,
 * house-number keys. Index and query go through exactly these functions, so that they agree.
 */

/** Letters that NFKD does not decompose into a base letter plus marks. */
const SPECIAL: Record<string, string> = {
  'ß': 'ss', 'æ': 'ae', 'ø': 'o', 'œ': 'oe', 'đ': 'd', 'ð': 'd', 'ł': 'l', 'ı': 'i', 'þ': 'th',
  'ŀ': 'l', 'ħ': 'h', 'ŧ': 't', 'ŋ': 'n', 'ĸ': 'k', 'ſ': 's',
};
const SPECIAL_RE = /[ßæøœđðłıþŀħŧŋĸſ]/g;
const MARKS_RE = /\p{M}+/gu;
/** Anything that is not a letter or a digit separates tokens. */
const SEP_RE = /[^\p{L}\p{N}]+/gu;

/** Letters and digits of an already folded ASCII text stay; anything else separates tokens. */
const ASCII_SEP_RE = /[^a-z0-9]+/g;

/** The full folding, before separators are collapsed: NFKD, no marks, lower case, SPECIAL. */
function foldChars(s: string): string {
  let t = s.normalize('NFKD').replace(MARKS_RE, '').toLowerCase();
  if (SPECIAL_RE.test(t)) t = t.replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c);
  SPECIAL_RE.lastIndex = 0;
  return t;
}

/** The definition of folding; foldText gives the same result faster for Latin text (tests compare them). */
export function foldFull(s: string): string {
  return foldChars(s).replace(SEP_RE, ' ').trim();
}

/*
 * Fast path. Most input is ASCII or Latin (Latin-1 and Latin Extended-A/B, U+0080–U+024F).
 * There, folding works character by character: no character of that range is a combining mark
 * (they start at U+0300), the NFKD decomposition of each starts with a base character and
 * only marks follow it (removed anyway, so canonical reordering cannot matter), and lower-casing
 * has no context rule there (the only one, Greek final sigma, is outside). So the whole text
 * folds to the concatenation of its characters' folds, with runs of separators collapsed. The
 * table holds each character's fold with separators as ' ', computed with foldChars itself; a
 * character whose fold is not plain ASCII (µ → μ, ŉ → ʼn) is left out and sends the text down
 * the full path. test/engine/lookup/normalize/fold-fast-path.test.ts checks every character.
 */
const LATIN_END = 0x250;
const LATIN_FOLD = new Map<string, string>();
const unfoldable: string[] = [];
for (let c = 0x80; c < LATIN_END; c++) {
  const ch = String.fromCharCode(c);
  const f = foldChars(ch).replace(SEP_RE, ' ');
  if (/^[a-z0-9 ]*$/.test(f)) LATIN_FOLD.set(ch, f);
  else unfoldable.push(`\\u${c.toString(16).padStart(4, '0')}`);
}
const NON_ASCII_RE = /[^\x00-\x7f]/;
/** A character outside the table: the text takes the full path. */
const NOT_IN_TABLE_RE = new RegExp(`[^\\x00-\\u024f${unfoldable.length ? ']|[' + unfoldable.join('') : ''}]`);
const LATIN_RE = /[\x80-\u024f]/g;

/** The text in ASCII with the table's folds, still in mixed case; undefined: take the full path. */
function latinToAscii(s: string): string | undefined {
  if (!NON_ASCII_RE.test(s)) return s;
  if (NOT_IN_TABLE_RE.test(s)) return undefined;
  return s.replace(LATIN_RE, (c) => LATIN_FOLD.get(c)!);
}

/** Folded text: lower case, no diacritics, punctuation replaced by single spaces, trimmed. */
export function foldText(s: string): string {
  const a = latinToAscii(s);
  // ASCII: NFKD changes nothing, there are no marks and no SPECIAL letters
  return a === undefined ? foldFull(s) : a.toLowerCase().replace(ASCII_SEP_RE, ' ').trim();
}

/** Folded tokens of a text. */
export function foldTokens(s: string): string[] {
  const a = latinToAscii(s);
  if (a === undefined) {
    const f = foldFull(s);
    return f === '' ? [] : f.split(' ');
  }
  return asciiTokens(a);
}

/** Class of an ASCII code unit: 0 separates tokens, 1 lower-case letter or digit, 2 upper-case letter. */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_CLASS[c] = (c >= 48 && c <= 57) || (c >= 97 && c <= 122) ? 1 : c >= 65 && c <= 90 ? 2 : 0;
}

/**
 * The runs of letters and digits of an ASCII text, lower-cased: what foldText(a).split(' ')
 * gives, without building the folded text and splitting it again (a query folds many parts).
 */
function asciiTokens(a: string): string[] {
  const out: string[] = [];
  let start = -1;
  let upper = false;
  for (let i = 0; i <= a.length; i++) {
    const k = i < a.length ? ASCII_CLASS[a.charCodeAt(i)]! : 0;
    if (k !== 0) {
      if (start < 0) start = i;
      if (k === 2) upper = true;
    } else if (start >= 0) {
      const t = a.slice(start, i);
      out.push(upper ? t.toLowerCase() : t);
      start = -1;
      upper = false;
    }
  }
  return out;
}

const HN_SUFFIX_WORDS = new Set(['bis', 'ter', 'quater', 'quinquies']);

/**
 * The comparable key of a house number: `2a`, `2 a`, `2/a`, `2-a`, `2A` all give `2a`; `1 bis`
 * gives `1bis`; a range `168-170` stays `168-170`. Returns '' when the text holds no number.
 */
export function houseNumberKey(s: string): string {
  const f = foldText(s);
  if (f === '') return '';
  const parts = f.split(' ');
  const first = parts[0]!;
  if (!/^\d/.test(first)) return f.replace(/ /g, '');
  // 168 170 (from 168-170): keep as a range
  if (parts.length === 2 && /^\d+$/.test(first) && /^\d+[a-z]?$/.test(parts[1]!) && /[-–]/.test(s)) {
    return `${first}-${parts[1]}`;
  }
  if (parts.length >= 2 && /^\d+$/.test(first)) {
    const next = parts[1]!;
    if (/^[a-z]$/.test(next) || HN_SUFFIX_WORDS.has(next)) return first + next;
  }
  return parts.join('');
}

/** True for a token that can be a house number: digits, optionally followed by a short suffix. */
export function looksLikeHouseNumber(tok: string): boolean {
  const c = tok.charCodeAt(0);
  if (!(c >= 48 && c <= 57)) return false; // both shapes start with a digit; most tokens are words
  return /^\d{1,5}(?:[a-z]{1,2}|bis|ter|quater)?$/.test(tok) || /^\d{1,5}-\d{1,5}$/.test(tok);
}

/** Damerau-Levenshtein distance, capped: returns max+1 as soon as it exceeds max. */
export function editDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  let prev2 = new Array<number>(lb + 1).fill(0);
  let prev = new Array<number>(lb + 1);
  let cur = new Array<number>(lb + 1);
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= lb; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        v = Math.min(v, prev2[j - 2]! + 1);
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[lb]!;
}

/**
 * Whether `a` and `b` are at most one edit apart (a letter inserted, deleted or replaced, or two
 * neighbours swapped): editDistance(a, b, 1) <= 1 without its rows.
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a.length > b.length) return withinOneEdit(b, a);
  const la = a.length, lb = b.length;
  if (lb - la > 1) return false;
  let i = 0;
  while (i < la && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === la) return true;
  if (la < lb) return sameFrom(a, i, b, i + 1);
  if (sameFrom(a, i + 1, b, i + 1)) return true;
  return i + 1 < la && a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameFrom(a, i + 2, b, i + 2);
}

/** a from `ai` on equals b from `bi` on (both to their ends). */
function sameFrom(a: string, ai: number, b: string, bi: number): boolean {
  if (a.length - ai !== b.length - bi) return false;
  for (; ai < a.length; ai++, bi++) if (a.charCodeAt(ai) !== b.charCodeAt(bi)) return false;
  return true;
}

/** The comparable key of a postcode: folded, without spaces (`02-685` → `02685`, `NN14` → `nn14`). */
export function postcodeKey(s: string): string {
  return foldText(s).replace(/ /g, '');
}
