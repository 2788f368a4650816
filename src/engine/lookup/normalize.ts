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

/** Folded text: lower case, no diacritics, punctuation replaced by single spaces, trimmed. */
export function foldText(s: string): string {
  let t = s.normalize('NFKD').replace(MARKS_RE, '').toLowerCase();
  if (SPECIAL_RE.test(t)) t = t.replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c);
  SPECIAL_RE.lastIndex = 0;
  return t.replace(SEP_RE, ' ').trim();
}

/** Folded tokens of a text. */
export function foldTokens(s: string): string[] {
  const f = foldText(s);
  return f === '' ? [] : f.split(' ');
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

/** The comparable key of a postcode: folded, without spaces (`02-685` → `02685`, `NN14` → `nn14`). */
export function postcodeKey(s: string): string {
  return foldText(s).replace(/ /g, '');
}
