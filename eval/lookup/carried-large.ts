/**
 * The parts of docs/accuracy.md that only `--large DIR` measures (the national-scale index takes
 * an hour to build and is not in every checkout): a run without `--large` carries them over from
 * the page as it stands, word for word, instead of writing a page without them.
 *
 *  - the section `## BANO real copy inside the national-scale index …`, up to the next `## `;
 *  - the rows of the unknown-streets table whose index is `national-scale …`.
 */

export const LARGE_SECTION = '## BANO real copy inside the national-scale index';
export const LARGE_ROW = '| national-scale';

export interface CarriedLarge {
  /** The section's lines, heading first and ending with its blank line; empty when the page has none. */
  section: string[];
  /** The unknown-streets table's national-scale rows. */
  unknownRows: string[];
}

export function carriedLarge(page: string | undefined): CarriedLarge {
  const lines = page ? page.split('\n') : [];
  const start = lines.findIndex((l) => l.startsWith(LARGE_SECTION));
  let section: string[] = [];
  if (start >= 0) {
    let end = start + 1;
    while (end < lines.length && !lines[end]!.startsWith('## ')) end++;
    section = lines.slice(start, end);
  }
  return { section, unknownRows: lines.filter((l) => l.startsWith(LARGE_ROW)) };
}

/** Whether anything was carried (the page then says its national-scale parts are from an earlier run). */
export function carriesAny(c: CarriedLarge): boolean {
  return c.section.length > 0 || c.unknownRows.length > 0;
}
