/**
 * Street-type abbreviations per language (reduction step 2): only used when a street line is
 * longer than maxcharsperline. Our own table of the abbreviations the postal operators publish or
 * accept (La Poste NF Z10-011 list, Royal Mail/An Post/Australia Post/Canada Post street types,
 * Correos, CTT/Correios, Poste Italiane, Deutsche Post "Str."…).
 *
 * `whole`: the word as a whole word. `suffix`: also as the end of a compound (German
 * "Hauptstraße" → "Hauptstr.", Swedish "Storgatan" → "Storg.").
 */
export interface Abbreviation {
  readonly word: string;
  readonly abbr: string;
  readonly suffix?: boolean;
}

export const STREET_ABBREVIATIONS: Readonly<Record<string, readonly Abbreviation[]>> = {
  de: [
    { word: 'straße', abbr: 'str.', suffix: true },
    { word: 'strasse', abbr: 'str.', suffix: true },
    { word: 'platz', abbr: 'pl.', suffix: true },
  ],
  fr: [
    { word: 'avenue', abbr: 'av' }, { word: 'boulevard', abbr: 'bd' }, { word: 'chemin', abbr: 'che' },
    { word: 'impasse', abbr: 'imp' }, { word: 'place', abbr: 'pl' }, { word: 'route', abbr: 'rte' },
    { word: 'faubourg', abbr: 'fg' }, { word: 'allée', abbr: 'all' }, { word: 'allee', abbr: 'all' },
    { word: 'square', abbr: 'sq' }, { word: 'résidence', abbr: 'res' }, { word: 'residence', abbr: 'res' },
    { word: 'lotissement', abbr: 'lot' }, { word: 'quartier', abbr: 'qua' }, { word: 'saint', abbr: 'st' },
    { word: 'sainte', abbr: 'ste' },
  ],
  en: [
    { word: 'street', abbr: 'st' }, { word: 'road', abbr: 'rd' }, { word: 'avenue', abbr: 'ave' },
    { word: 'drive', abbr: 'dr' }, { word: 'lane', abbr: 'ln' }, { word: 'court', abbr: 'ct' },
    { word: 'place', abbr: 'pl' }, { word: 'crescent', abbr: 'cres' }, { word: 'terrace', abbr: 'tce' },
    { word: 'boulevard', abbr: 'blvd' }, { word: 'square', abbr: 'sq' }, { word: 'parade', abbr: 'pde' },
    { word: 'highway', abbr: 'hwy' },
  ],
  es: [
    { word: 'calle', abbr: 'c/' }, { word: 'avenida', abbr: 'av.' }, { word: 'plaza', abbr: 'pl.' },
    { word: 'paseo', abbr: 'p.º' }, { word: 'carretera', abbr: 'ctra.' }, { word: 'camino', abbr: 'cno.' },
    { word: 'ronda', abbr: 'rda.' }, { word: 'travesía', abbr: 'trva.' },
  ],
  pt: [
    { word: 'rua', abbr: 'r.' }, { word: 'avenida', abbr: 'av.' }, { word: 'travessa', abbr: 'tv.' },
    { word: 'praça', abbr: 'pç.' }, { word: 'largo', abbr: 'lg.' }, { word: 'estrada', abbr: 'estr.' },
    { word: 'alameda', abbr: 'al.' }, { word: 'rodovia', abbr: 'rod.' },
  ],
  it: [
    { word: 'via', abbr: 'v.' }, { word: 'viale', abbr: 'v.le' }, { word: 'piazza', abbr: 'p.zza' },
    { word: 'corso', abbr: 'c.so' }, { word: 'piazzale', abbr: 'p.le' }, { word: 'largo', abbr: 'l.go' },
    { word: 'vicolo', abbr: 'vic.' },
  ],
  nl: [
    { word: 'straat', abbr: 'str', suffix: true }, { word: 'plein', abbr: 'pln', suffix: true },
    { word: 'laan', abbr: 'ln', suffix: true }, { word: 'steenweg', abbr: 'stwg', suffix: true },
  ],
  pl: [
    { word: 'ulica', abbr: 'ul.' }, { word: 'aleja', abbr: 'al.' }, { word: 'aleje', abbr: 'al.' },
    { word: 'plac', abbr: 'pl.' }, { word: 'osiedle', abbr: 'os.' },
  ],
  cs: [{ word: 'náměstí', abbr: 'nám.' }, { word: 'třída', abbr: 'tř.' }, { word: 'ulice', abbr: 'ul.' }],
  sk: [{ word: 'námestie', abbr: 'nám.' }, { word: 'ulica', abbr: 'ul.' }, { word: 'trieda', abbr: 'tr.' }],
  hu: [{ word: 'utca', abbr: 'u.' }, { word: 'körút', abbr: 'krt.' }, { word: 'sugárút', abbr: 'sgt.' }],
  ro: [
    { word: 'strada', abbr: 'str.' }, { word: 'bulevardul', abbr: 'bd.' }, { word: 'calea', abbr: 'cal.' },
    { word: 'piața', abbr: 'pța.' }, { word: 'aleea', abbr: 'al.' }, { word: 'șoseaua', abbr: 'șos.' },
  ],
  sv: [{ word: 'gatan', abbr: 'g.', suffix: true }, { word: 'vägen', abbr: 'v.', suffix: true }],
  da: [{ word: 'gade', abbr: 'g.', suffix: true }, { word: 'vej', abbr: 'v.', suffix: true }, { word: 'allé', abbr: 'al.', suffix: true }],
  fi: [{ word: 'katu', abbr: 'k.', suffix: true }, { word: 'tie', abbr: 't.', suffix: true }],
  hr: [{ word: 'ulica', abbr: 'ul.' }, { word: 'trg', abbr: 'trg' }],
  sl: [{ word: 'ulica', abbr: 'ul.' }, { word: 'cesta', abbr: 'c.' }],
  lt: [{ word: 'gatvė', abbr: 'g.' }, { word: 'prospektas', abbr: 'pr.' }, { word: 'aikštė', abbr: 'a.' }],
  lv: [{ word: 'iela', abbr: 'iela' }, { word: 'prospekts', abbr: 'prosp.' }],
  et: [{ word: 'tänav', abbr: 'tn' }, { word: 'maantee', abbr: 'mnt' }, { word: 'puiestee', abbr: 'pst' }],
  el: [{ word: 'odos', abbr: 'od.' }, { word: 'οδός', abbr: 'οδ.' }, { word: 'λεωφόρος', abbr: 'λεωφ.' }],
  bg: [{ word: 'ulitsa', abbr: 'ul.' }, { word: 'улица', abbr: 'ул.' }, { word: 'bulevard', abbr: 'bul.' }, { word: 'булевард', abbr: 'бул.' }],
  mt: [{ word: 'triq', abbr: 'tr.' }],
};

export interface Abbreviator {
  /** Returns the abbreviated text, or the same string when nothing applies. */
  (text: string): string;
}

const IDENTITY: Abbreviator = (s) => s;

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Keeps the case style of the replaced word (UPPER, Capital, lower). */
function caseLike(source: string, abbr: string): string {
  if (source === source.toUpperCase() && source !== source.toLowerCase()) return abbr.toUpperCase();
  const first = source[0] ?? '';
  if (first !== first.toLowerCase()) return (abbr[0] ?? '').toUpperCase() + abbr.slice(1);
  return abbr;
}

/** Compiles one regex per destination, once, at module load (never per call). */
export function compileAbbreviator(languages: readonly string[]): Abbreviator {
  const byWord = new Map<string, string>();
  const wholeParts: string[] = [];
  const suffixParts: string[] = [];
  for (const lang of languages) {
    for (const a of STREET_ABBREVIATIONS[lang] ?? []) {
      if (a.word === a.abbr) continue;
      byWord.set(a.word, a.abbr);
      (a.suffix ? suffixParts : wholeParts).push(escape(a.word));
    }
  }
  if (byWord.size === 0) return IDENTITY;
  // Longest first so that "sainte" wins over "saint".
  const sort = (xs: string[]) => xs.sort((x, y) => y.length - x.length).join('|');
  // Letters of the scripts our destinations use (Latin incl. extensions, Greek, Cyrillic), as an
  // explicit class: without the `u` flag the regex runs markedly faster than with \p{L}.
  const L = 'A-Za-z\\u00C0-\\u024F\\u0370-\\u03FF\\u0400-\\u04FF\\u1E00-\\u1EFF';
  const alternatives: string[] = [];
  if (suffixParts.length) alternatives.push(`(?<=[${L}])(${sort(suffixParts)})(?![${L}])`);
  alternatives.push(`(?<![${L}])(${sort([...wholeParts, ...suffixParts])})(?![${L}.])`);
  const re = new RegExp(alternatives.join('|'), 'gi');
  return (text) =>
    text.replace(re, (m: string) => {
      const abbr = byWord.get(m.toLowerCase());
      return abbr === undefined ? m : caseLike(m, abbr);
    });
}
