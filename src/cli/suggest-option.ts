/**
 * "Did you mean …?" for a mistyped flag: the closest flag the command's usage lists, within two
 * edits (`--inptu` → `--input`, `--prefer_country` → `--prefer-country`).
 */
import { editDistance } from '../engine/lookup/normalize/normalize.ts';

const UNKNOWN = /Unknown option '(--[^']+)'.*$/;

/** The flag closest to `given` among those `usage` names, or undefined. */
export function closestOption(given: string, usage: string): string | undefined {
  const flags = new Set(usage.match(/--[a-z][a-z0-9-]*/g) ?? []);
  let best: string | undefined;
  let bestDistance = 3;
  const typed = given.split('=')[0]!.toLowerCase().replaceAll('_', '-');
  for (const flag of flags) {
    const d = flag === typed ? 0 : editDistance(typed, flag, bestDistance);
    if (d < bestDistance) [best, bestDistance] = [flag, d];
  }
  return best;
}

/**
 * A usage error's line, its unknown-flag part (parseArgs adds a sentence about positional
 * arguments) cut to the flag and a suggestion when one is close.
 */
export function withSuggestion(line: string, usage: string): string {
  return line.replace(UNKNOWN, (_, flag: string) => {
    const near = closestOption(flag, usage);
    return near ? `Unknown option '${flag}': did you mean ${near}?` : `Unknown option '${flag}'`;
  });
}
