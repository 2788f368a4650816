/**
 * The "Relevance deductions" section of docs/accuracy.md, from the one module that defines them
 * (src/engine/lookup/score/deductions.ts): run.ts writes it with the measurements, and
 * test/docs/deductions-doc.test.ts fails when the page and the module drift apart.
 */
import { DEDUCTIONS, type Deduction } from '../../src/engine/lookup/score/deductions.ts';

const SHARE = new Set(['UNEXPLAINED_WORD', 'POSTCODE_NOT_MATCHED', 'TYPO', 'ABBREVIATION', 'OTHER_ROLE', 'POSTCODE_PREFIX', 'WEAK_PLACE_NAME',
  'HOUSENUMBER_APPROXIMATE', 'HOUSENUMBER_NOT_FOUND', 'COUNTRY_NOT_MATCHED', 'STATE_NOT_MATCHED', 'COUNTY_NOT_MATCHED']);
const CAPS = new Set(['STREET_NOT_FOUND', 'COUNTRY_ONLY', 'NOTHING_FOUND']);

function size(d: Deduction): string {
  if (SHARE.has(d.code)) return `share × ${d.points}`;
  if (CAPS.has(d.code)) return `at most ${d.points}`;
  if (d.code === 'STREET_NAME_PARTLY_NAMED') return `${d.points} × share of the name left out`;
  return String(d.points);
}

export function deductionsSection(): string[] {
  return [
    '## Relevance deductions (what `explain` reports)',
    '',
    'Relevance starts from the share of the input the answer explains: each query word counts its weight (1; a country, state or county 0.5; the house number 1), times the quality of its match (1 exact). ' +
    'Then fixed deductions and caps apply. With `explain=1` (HTTP), `run --explain` or `consume --explain`, every deduction that applied is listed with the points it took off that answer (one decimal; their sum is 100 minus the relevance, give or take rounding, except where the relevance was clamped at 0). ' +
    '"share" = 100 × the word\'s weight ÷ the query\'s total weight; the number after it is the quality its match lacked. Defined in `src/engine/lookup/score/deductions.ts`.',
    '',
    '| code | points | when |',
    '|---|---|---|',
    ...DEDUCTIONS.map((d) => `| \`${d.code}\` | ${size(d)} | ${d.why} |`),
    '',
    'Parts: each input word is `matched` (as typed), `corrected` (`typo`, `abbreviation`, `diacritics`, `transliteration` such as ae for ä, `another form`; a house number found only as its base number or in a range), ' +
    '`ignored` (nothing in the answer explains it), and each answer key the input did not give (`country_iso_2`, `state`, `city`, `district`, `zip`) is `inferred`.',
    '',
  ];
}
