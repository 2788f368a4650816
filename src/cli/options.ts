/** Option parsing shared by the subcommands. */
import { UsageError } from './main.ts';

/** A whole-number option from `min` to `max`; `dflt` when absent; a usage error otherwise. */
export function intOption(name: string, v: string | undefined, dflt: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (v === undefined) return dflt;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new UsageError(max === Number.MAX_SAFE_INTEGER ? `--${name} must be a whole number ≥ ${min}` : `--${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(v);
}
