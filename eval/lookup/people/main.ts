/**
 * `node eval/lookup/run.ts people [--set NAME] [--failures N]`: the people sets alone, on the
 * embedded default, printed (docs/accuracy.md is written only by the full `npm run eval:lookup`).
 */
import { lookup } from '../../../src/engine/lookup/index.ts';
import { cachedIndex } from '../suites.ts';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { baselineTable } from './report.ts';
import { runPeopleSection } from './section.ts';

/**
 * `--write-baseline COMMIT` records this run as the baseline (eval/lookup/people/baseline.md,
 * shown in docs/accuracy.md): done once, on main's engine before issue 18 (11d11a0).
 */
export async function peopleMain(args: { set?: string; failures?: string; 'write-baseline'?: string }): Promise<void> {
  const { index } = await cachedIndex('default');
  const sets = args.set ? [args.set.replace(/-/g, ' ')] : undefined;
  const run = runPeopleSection(index, lookup, { sets, failures: Number(args.failures ?? 0) });
  console.log(run.lines.join('\n'));
  const commit = args['write-baseline'];
  if (commit && !sets) {
    const md = [
      '### Baseline: before issue 18 (engine of commit ' + commit + ')', '',
      `Recorded ${new Date().toISOString().slice(0, 10)} with \`node eval/lookup/run.ts people --write-baseline ${commit}\` on the engine of ${commit} (main before issue 18's engine work), on a shared 2-core machine; a fixed record, not re-run. Compare the tables above with it.`, '',
      ...baselineTable(run.reports),
    ];
    writeFileSync(fileURLToPath(new URL('baseline.md', import.meta.url)), md.join('\n'));
  }
}
