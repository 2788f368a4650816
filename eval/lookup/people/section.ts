/**
 * The "Queries as people write them" section of docs/accuracy.md (issue 18): runs every people
 * set on the embedded default and returns its markdown, with the fixed rules, the counts per
 * half, pattern and country, and the baseline recorded before issue 18's engine work.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressIndex } from '../../../src/engine/index/index.ts';
import { evaluateCases, PEOPLE_SETS, type Lookup } from './evaluate.ts';
import { reportLines } from './report.ts';
import type { SetReport } from './score.ts';

export interface PeopleRun { lines: string[]; reports: SetReport[]; ms: number; queries: number }

export function runPeopleSection(index: AddressIndex, lookupFn: Lookup, opts: { sets?: string[]; failures?: number } = {}): PeopleRun {
  const t0 = performance.now();
  const L: string[] = [];
  const reports: SetReport[] = [];
  let queries = 0;
  L.push('## Queries as people write them (issue 18)', '');
  L.push('Reproduce alone: `node eval/lookup/run.ts people` (only these sets, on the embedded default, about a minute; `--set places|addresses|geocoder-cases|states|places-with-state|city-parts|misspelt-places|town-exonyms` for one set, `--failures N` to list N wrong answers of the tune half, `--json FILE` to write the counts for comparing runs). Every case goes to the **tune** half or the **measured** half by the FNV-1a hash of its id (even = tune); targets are read on the measured half. Queries carry no country unless a third-party case has one.', '');
  L.push(...fileLines('rules.md'));
  for (const [set, build] of Object.entries(PEOPLE_SETS)) {
    if (opts.sets && !opts.sets.includes(set)) continue;
    const cases = build();
    queries += cases.length;
    const rep = evaluateCases(index, set, cases, lookupFn);
    reports.push(rep);
    L.push(...reportLines(rep, { countries: true, failures: opts.failures ?? 0 }));
  }
  const ms = performance.now() - t0;
  L.push(`${queries} queries in ${(ms / 1000).toFixed(1)} s.`, '');
  return { lines: L, reports, ms, queries };
}

function fileLines(name: string): string[] {
  try {
    return readFileSync(fileURLToPath(new URL(name, import.meta.url)), 'utf8').trimEnd().split('\n').concat('');
  } catch {
    return [];
  }
}

/** The baseline numbers recorded on main before issue 18's engine work (a fixed file, not re-run). */
export function baselineLines(): string[] {
  return fileLines('baseline.md');
}
