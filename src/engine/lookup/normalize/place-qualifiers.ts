/**
 * Stage 1 (normalize, see ../index.ts): the abbreviated river and region qualifiers of German place
 * names, as addresses and CRM exports write them — `Frankfurt a.M.`, `Freiburg i.Br.`, `Mülheim
 * a.d. Ruhr`, `Rothenburg o.d.T.`, `Ludwigshafen a.Rh.`, `Weiden i.d.OPf.` — written out as the
 * names are (`am Main`, `im Breisgau`, `an der Ruhr`), so that the words name the place: without
 * them `Frankfurt a.M.` named Frankfurt (Oder), and `{"city": "Frankfurt a.M."}` nothing at all.
 * Only these dotted forms are read: a letter and a dot (`a.`, `i.`, `o.`) before a capital letter,
 * never a word of the text; and the river's capital after a slash right after a word
 * (`Frankfurt/M.`, `Halle/S.`).
 */

/** [pattern, written out]: the qualifier with or without spaces after its dots, any case. */
const QUALIFIERS: readonly [RegExp, string][] = [
  [/(?<![\p{L}\d])a\.\s*M(?:ain)?\.?(?![\p{L}\d])/giu, 'am Main'],
  [/(?<![\p{L}\d])i\.\s*Br(?:sg)?\.?(?![\p{L}\d])/giu, 'im Breisgau'],
  [/(?<![\p{L}\d])a\.\s*Rh(?:ein)?\.?(?![\p{L}\d])/giu, 'am Rhein'],
  [/(?<![\p{L}\d])o\.\s*d\.\s*T(?:auber)?\.?(?![\p{L}\d])/giu, 'ob der Tauber'],
  [/(?<![\p{L}\d])i\.\s*d\.\s*OPf\.?(?![\p{L}\d])/giu, 'in der Oberpfalz'],
  [/(?<![\p{L}\d])a\.\s*d\.(?=\s*\p{Lu})/gu, 'an der'],
  [/(?<![\p{L}\d])i\.\s*d\.(?=\s*\p{Lu})/gu, 'in der'],
  // after a slash, as German forms and letterheads write the river: `Frankfurt/M.`, `Frankfurt/O.`,
  // `Halle/S.`, `Freiburg/Br.` (a word of two letters or more right before the slash: not a
  // Danish company's `A/S`)
  [/(?<=\p{L}{2})\s*\/\s*M\.?(?![\p{L}\d])/gu, 'am Main'],
  [/(?<=\p{L}{2})\s*\/\s*O\.?(?![\p{L}\d])/gu, 'an der Oder'],
  [/(?<=\p{L}{2})\s*\/\s*S\.?(?![\p{L}\d])/gu, 'an der Saale'],
  [/(?<=\p{L}{2})\s*\/\s*Br(?:sg)?\.?(?![\p{L}\d])/gu, 'im Breisgau'],
];

/** A cheap first test: every qualifier has a letter, a dot and a capital or a second letter-dot, or a slash and a capital. */
const HINT = /(?<![\p{L}\d])[aio]\.\s*[\p{L}]|\/\s*[MOSB]/iu;

/** `text` with the qualifiers above written out; `text` itself when it has none. */
export function expandPlaceQualifiers(text: string): string {
  if (!HINT.test(text)) return text;
  let out = text;
  for (const [re, full] of QUALIFIERS) out = out.replace(re, ` ${full} `);
  return out;
}
