/**
 * Which countries a street name's type word points to ("Vesterbrogade" → DK, "Rue …" → FR, BE,
 * LU, CH), and the letters of the query's names (ø → DK, ġ → MT). Used only to choose among the
 * countries where an otherwise unplaced postcode exists ("3500" is a code in AT, DK, HU, …) or
 * a name several countries share: a hint, never a reason to leave the named country.
 */
const WORDS: Record<string, string> = {
  rue: 'FR BE LU CH', avenue: 'FR BE LU CH GB IE CA AU MT', chemin: 'FR BE LU CH CA', boulevard: 'FR BE LU CH CA DK', impasse: 'FR BE LU CH',
  allee: 'FR BE LU DE AT CH DK', place: 'FR BE LU CH', route: 'FR BE LU CH', quai: 'FR BE LU CH', cours: 'FR',
  calle: 'ES AR', avenida: 'ES PT BR AR', plaza: 'ES AR', paseo: 'ES', carrer: 'ES', camino: 'ES',
  via: 'IT CH', viale: 'IT', piazza: 'IT', corso: 'IT', vicolo: 'IT',
  rua: 'PT BR', travessa: 'PT BR', largo: 'PT IT', praca: 'PT BR',
  ul: 'PL', ulica: 'PL HR SI SK', aleja: 'PL', al: 'PL', plac: 'PL', osiedle: 'PL',
  triq: 'MT', pjazza: 'MT', sqaq: 'MT', telgha: 'MT',
  street: 'GB IE MT AU CA', road: 'GB IE MT AU CA', hill: 'GB IE MT AU CA', lane: 'GB IE AU CA', drive: 'GB IE AU CA', close: 'GB IE',
  utca: 'HU', ut: 'HU', ter: 'HU', ulice: 'CZ', namesti: 'CZ', trida: 'CZ', strada: 'RO IT', bulevardul: 'RO', calea: 'RO',
  cesta: 'SI', iela: 'LV', gatve: 'LT', tanav: 'EE', maantee: 'EE',
};
const SUFFIXES: [string, string][] = [
  ['strasse', 'DE AT CH LI LU'], ['str', 'DE AT CH LI'], ['gasse', 'AT CH LI DE'], ['weg', 'DE AT CH LI NL'], ['platz', 'DE AT CH LI'],
  ['vej', 'DK'], ['gade', 'DK'], ['straede', 'DK'], ['straat', 'NL BE'], ['laan', 'NL BE'], ['plein', 'NL BE'], ['gracht', 'NL'],
  ['katu', 'FI'], ['tie', 'FI'], ['kuja', 'FI'], ['gatan', 'SE'], ['vagen', 'SE'], ['gata', 'SE'],
];

/** Countries the street type words of these folded tokens point to (empty: no hint). */
export function streetCountries(tokens: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const t of tokens) {
    const w = WORDS[t];
    if (w) for (const c of w.split(' ')) out.add(c);
    if (t.length < 5) continue;
    for (const [suf, cs] of SUFFIXES) if (t.endsWith(suf)) for (const c of cs.split(' ')) out.add(c);
  }
  return out;
}

/** True for a street type word ("rue", "calle", "…strasse", "…vej"). */
export function isStreetWord(t: string): boolean {
  if (WORDS[t]) return true;
  if (t.length < 5) return false;
  return SUFFIXES.some(([suf]) => t.endsWith(suf));
}

/**
 * Letters that only some destinations' languages write (lower case; the query is lower-cased
 * first). Letters shared by many (ä, ö, ü, é, ç, ô) say nothing and are not listed.
 */
const LETTERS: [RegExp, string][] = [
  [/[æø]/, 'DK'], [/å/, 'DK SE FI'], [/ß/, 'DE AT CH LI LU'],
  [/[łńśź]/, 'PL'], [/ż/, 'PL MT'], [/[ąę]/, 'PL LT'], [/[őű]/, 'HU'],
  [/[řůě]/, 'CZ'], [/[ňťď]/, 'CZ SK'], [/[ľĺŕ]/, 'SK'], [/đ/, 'HR'],
  [/[āēīļņķģ]/, 'LV'], [/[ėįų]/, 'LT'], [/ū/, 'LV LT'], [/õ/, 'EE PT'], [/ã/, 'PT BR'], [/ñ/, 'ES AR'],
  [/[ġħċ]/, 'MT'], [/[șțşţă]/, 'RO'],
];

/** Countries whose languages write every distinctive letter of the text (empty: no hint). */
export function letterCountries(raw: string): Set<string> {
  const t = raw.toLowerCase();
  let out: Set<string> | undefined;
  for (const [re, cs] of LETTERS) {
    if (!re.test(t)) continue;
    const here = new Set(cs.split(' '));
    out = out ? new Set([...out].filter((c) => here.has(c))) : here;
  }
  return out ?? new Set();
}

/**
 * The countries the query's street words and letters point to: both where they agree; where
 * they disagree, the letters (a name's own spelling outweighs a type word borrowed across
 * languages, like "Boulevard").
 */
export function countryHint(tokens: readonly string[], raw: string): Set<string> {
  const words = streetCountries(tokens);
  const letters = letterCountries(raw);
  if (letters.size === 0) return words;
  if (words.size === 0) return letters;
  const both = new Set([...words].filter((c) => letters.has(c)));
  return both.size > 0 ? both : letters;
}
