/**
 * `node eval/lookup/run.ts people [--set NAME] [--failures N]`: the people sets alone, on the
 * embedded default, printed (docs/accuracy.md is written only by the full `npm run eval:lookup`).
 */
import { lookup } from '../../../src/engine/lookup/index.ts';
import { cachedIndex } from '../suites.ts';
import { runPeopleSection } from './section.ts';

export async function peopleMain(args: { set?: string; failures?: string }): Promise<void> {
  const { index } = await cachedIndex('default');
  const sets = args.set ? [args.set.replace(/-/g, ' ')] : undefined;
  const run = runPeopleSection(index, lookup, { sets, failures: Number(args.failures ?? 0) });
  console.log(run.lines.join('\n'));
}
