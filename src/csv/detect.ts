/**
 * Delimiter detection: the candidate (`,` `;` tab `|`) that occurs most often outside quotes in
 * the first line (the header row); ties go to the earlier candidate; a line with none of them is
 * one column, read with `,`.
 */
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

export function detectDelimiter(firstLine: string): Delimiter {
  const counts = [0, 0, 0, 0];
  let quoted = false;
  for (let i = 0; i < firstLine.length; i++) {
    const ch = firstLine[i]!;
    if (ch === '"') quoted = !quoted;
    else if (!quoted) {
      const k = DELIMITERS.indexOf(ch as Delimiter);
      if (k >= 0) counts[k]!++;
    }
  }
  let best = 0;
  for (let k = 1; k < counts.length; k++) if (counts[k]! > counts[best]!) best = k;
  return DELIMITERS[best]!;
}

/** Parses a `--delimiter` value: one of the candidates, or `tab`. */
export function parseDelimiterOption(v: string): Delimiter | undefined {
  if (v === 'tab' || v === '\\t') return '\t';
  return (DELIMITERS as readonly string[]).includes(v) ? (v as Delimiter) : undefined;
}
