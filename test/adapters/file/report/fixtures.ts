/**
 * Inputs for report tests, the counts a report must show worked out independently from a job's
 * input and output files, and a reader of the counts a rendered report draws.
 */

const CITIES: Array<[string, string]> = [
  ['Paris', 'FR'], ['Lyon', 'FR'], ['Berlin', 'DE'], ['Hamburg', 'DE'], ['Madrid', 'ES'], ['Roma', 'IT'],
  ['Wien', 'AT'], ['Warszawa', 'PL'], ['Lisboa', 'PT'], ['Stockholm', 'SE'], ['London', 'GB'], ['Praha', 'CZ'],
  ['Zürich', 'CH'], ['Amsterdam', 'NL'], ['Qqqzzzville', 'DE'], ['Sydney', 'AU'], ['Montréal', 'CA'], ['Weil', 'DE'],
];

/** Hostile values that must come out of the report as text. */
export const INJECTIONS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(2)>',
  "</td></tr></table><iframe src='https://example.com/'></iframe>",
  '<svg onload=alert(3)>',
];

/** Search request lines: cities, a city that matches nothing, broken JSON, invalid parameters, injections. */
export function searchLines(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = i + 1;
    if (i % 97 === 5) out.push(`{"id":${id},"city":`); // not JSON
    else if (i % 89 === 7) out.push(JSON.stringify({ id, city: 'Paris', countrycode: 'FR', zip: 12345 })); // 412: a number
    else if (i % 83 === 3) {
      // Hostile values, in processed rows and (with a zip that is a number: 412) in rejected ones.
      const k = (i / 83) | 0;
      const v = INJECTIONS[k % INJECTIONS.length]!;
      out.push(JSON.stringify(k % 2 === 0 ? { id, city: v, street: v, countrycode: 'FR', zip: 1 } : { id, city: v, countrycode: 'FR' }));
    }
    else {
      const [city, cc] = CITIES[i % CITIES.length]!;
      out.push(JSON.stringify({ id, city, countrycode: cc }));
    }
  }
  return out;
}

export interface Expected {
  records: number;
  processed: number;
  rejected: number;
  codes: Record<string, number>;
  matchlevels: Record<string, number>;
  relevance: Record<string, number>;
  countries: Record<string, number>;
  answered: number;
}

function country(v: unknown): string {
  return typeof v === 'string' && /^[A-Za-z]{2}$/.test(v) ? v.toUpperCase() : '';
}

/** What the report must count, from the job's input and output lines (one output per input). */
export function expectedCounts(input: string[], output: string[]): Expected {
  const e: Expected = { records: 0, processed: 0, rejected: 0, codes: {}, matchlevels: {}, relevance: {}, countries: {}, answered: 0 };
  const bump = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
  for (let b = 0; b < 10; b++) e.relevance[String(b * 10)] = 0;
  output.forEach((line, i) => {
    const rec = JSON.parse(line) as Record<string, unknown>;
    let req: Record<string, unknown> | undefined;
    try {
      req = JSON.parse(input[i]!);
    } catch {
      req = undefined;
    }
    e.records++;
    if (typeof rec.errorcode === 'number') {
      e.rejected++;
      bump(e.codes, String(rec.errorcode));
      bump(e.countries, country(req?.countrycode) || 'none');
      return;
    }
    e.processed++;
    bump(e.codes, String(rec.addresslinestatuscode ?? 0));
    if (rec.matchlevel) bump(e.matchlevels, String(rec.matchlevel));
    const rel = Number(rec.relevance);
    e.relevance[String(Math.min(90, Math.floor(rel / 10) * 10))]!++;
    bump(e.countries, country(rec.country_iso_2) || country(req?.countrycode) || 'none');
    if (rec.latitude !== '' && rec.longitude !== '') e.answered++;
  });
  return e;
}

/** Countries as the report draws them: the 20 largest, then one bar for the others. */
export function drawnCountries(countries: Record<string, number>): Record<string, number> {
  const raw = Object.entries(countries).map(([k, c]) => [k === 'none' ? '' : k, c] as const)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const out: Record<string, number> = {};
  for (const [k, c] of raw.slice(0, 20)) out[k || 'none'] = c;
  if (raw.length > 20) out.others = raw.slice(20).reduce((a, [, c]) => a + c, 0);
  return out;
}

/** The counts a rendered report draws: chart → key → number, and the tiles. */
export function drawnCounts(html: string): { charts: Record<string, Record<string, number>>; tiles: Record<string, string>; rows: number[]; cells: string } {
  const charts: Record<string, Record<string, number>> = {};
  for (const m of html.matchAll(/data-chart="([^"]+)" data-key="([^"]*)"[^>]*>([\d,]+)</g)) {
    (charts[m[1]!] ??= {})[m[2]!] = Number(m[3]!.replaceAll(',', ''));
  }
  const tiles: Record<string, string> = {};
  for (const m of html.matchAll(/data-tile="([^"]+)">([^<]*)</g)) tiles[m[1]!] = m[2]!;
  const rows = [...html.matchAll(/data-position="(\d+)"/g)].map((m) => Number(m[1]));
  const cells = /<g class="cells">(.*?)<\/g>/s.exec(html)?.[1] ?? '';
  delete tiles.rate; // records/s depends on the clock
  return { charts, tiles, rows, cells };
}
