/**
 * The names policy of the answers (issue 18) and how many answers another name of a place made
 * wrong, for docs/accuracy.md: over every case of the "queries as people write them" sets (both
 * halves: a count, not a tuning target; not the misspelt places), the answers whose city shares no
 * word with the query and that no misspelling found (the place was named by another of its names:
 * an exonym, a CLDR name, a GeoNames alternate name),
 * and how many of those are wrong by the sets' truth rules.
 */
import type { AddressIndex } from '../../src/engine/index/index.ts';
import { lookupExplained } from '../../src/engine/lookup/index.ts';
import { foldTokens } from '../../src/engine/lookup/normalize/normalize.ts';
import { MISSPELT_SET } from './people/misspelt.ts';
import { PEOPLE_SETS, type Lookup } from './people/evaluate.ts';
import { isRight } from './people/score.ts';

export function namesSectionLines(index: AddressIndex, lookupFn: Lookup): string[] {
  const rows: string[] = [];
  let all = 0, wrong = 0;
  const examples: string[] = [];
  for (const [set, make] of Object.entries(PEOPLE_SETS)) {
    // (every answer of the misspelt places is found by a misspelling, none by another name)
    if (set === MISSPELT_SET) continue;
    let n = 0, other = 0, bad = 0;
    for (const c of make()) {
      // queries that name a place only (the addresses' street patterns name no place by another name)
      if (set === 'addresses' && c.pattern !== 'city alone' && c.pattern !== 'exonym city') continue;
      n++;
      const r = lookupFn(index, c.query);
      if (!r.city) continue;
      const typed = new Set(foldTokens(Object.values(c.query).join(' ')));
      if (foldTokens(r.city).some((w) => typed.has(w))) continue;
      // (a place found by a misspelling of its name is not found by another name: `Vancovuer`)
      if (lookupExplained(index, c.query).explain.parts.some((p) => p.why === 'typo')) continue;
      other++;
      if (!isRight(c, r)) {
        bad++;
        if (examples.length < 12) examples.push(`\`${JSON.stringify(c.query)}\` → ${r.city}, ${r.country_iso_2} (${r.relevance})`);
      }
    }
    rows.push(`| ${set} | ${n} | ${other} | ${bad} |`);
    all += other; wrong += bad;
  }
  return [
    '## Names in the answer and answers found by another name (issue 18)',
    '',
    'Policy (also in docs/http.md, "Names in the answer"): `city` and `state_name` are the names used locally by default (`Praha`, `København`, `Wien`; `Noord-Holland`, `województwo mazowieckie`), the `locale`\'s where a source has it (CLDR exemplar cities, CLDR subdivisions in English, OpenCage address-formatting), else the local one; nothing is translated by us. A state answered alone (`Bavaria` → `Bayern`; see "Relevance deductions") follows the same policy. Still without local names (checked by hand on the embedded default, 2026-11-25): GR, CY and BG cities are shown in GeoNames\' Latin spelling (`Athens`, `Lefkosia`, `Sofia`; Greek or Cyrillic only with `locale=el`/`bg` and only for the capitals, from CLDR; BG postal places keep the postal data\'s `Пловдив / Plovdiv`): GeoNames publishes no Greek postcodes, and its Cypriot and Bulgarian place names are Latin. GR regions have CLDR\'s English names, FI regions GeoNames\' English ones, DK `Zealand`: no offline source has them in the local language. Places under 10,000 people keep GeoNames\' name where it is another language\'s (a Swedish, Irish or German form) and the postal data has no other name for them; towns from 10,000 people take the postal spelling when the post knows them only by another of their names (`Newbridge`, `Mullingar`, `Sion`, `Hyvinkää`), and follow the post where it writes another official language (BE: `Renaix` for Ronse, `Rhode-Saint-Genèse` for Sint-Genesius-Rode).',
    '',
    'Answers found by another name of a place: over every case of the sets above but the misspelt places (both halves), the answers whose `city` shares no word with the query and that were not found by a misspelling (`explain` reports none: the place was named by an exonym, a CLDR name or a GeoNames alternate name), and how many of them are wrong by the sets\' truth rules. GeoNames\' untagged alternate names are kept for places of 50,000 people or more, and those of one word that name no other place for towns of 10,000 or more, and dropped when several places hold them or another town of 10,000 people or more is named so (scripts/gen-default-layer.ts).',
    '',
    '| set | queries (addresses: patterns `city alone`, `exonym city`) | answered by another name | of which wrong |',
    '|---|---|---|---|',
    ...rows,
    '',
    `In all: ${all} answers by another name, **${wrong} wrong**.${examples.length ? ' The wrong ones (first):' : ''}`,
    '',
    ...examples.map((e) => `- ${e}`),
    ...(examples.length ? [''] : []),
  ];
}
