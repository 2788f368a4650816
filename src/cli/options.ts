/** Option parsing shared by the subcommands: a wrong value names the flag and what it got. */
import { checkPreferCountry } from '../contract/validate.ts';
import { UsageError } from './command.ts';

/** `got 'x'`, or `got nothing` for an empty value. */
export function got(v: string): string {
  return v === '' ? 'got nothing' : `got ${v}`;
}

/** A whole-number option from `min` to `max`; `dflt` when absent; a usage error otherwise. */
export function intOption(name: string, v: string | undefined, dflt: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (v === undefined) return dflt;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new UsageError(`${max === Number.MAX_SAFE_INTEGER ? `--${name} must be a whole number ≥ ${min}` : `--${name} must be a whole number from ${min} to ${max}`}, ${got(v)}`);
  }
  return Number(v);
}

/** "a, b or c". */
export function alternatives(allowed: readonly string[]): string {
  return allowed.length < 2 ? allowed.join('') : `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`;
}

/** An option that takes one of `allowed`: the value, or a usage error naming what it got. */
export function oneOf<T extends string>(name: string, v: string | undefined, allowed: readonly T[]): T {
  if (v === undefined || !(allowed as readonly string[]).includes(v)) {
    throw new UsageError(`--${name} must be ${alternatives(allowed)}, ${v === undefined ? 'got nothing' : got(v)}`);
  }
  return v as T;
}

/**
 * `--prefer-country CC`: the soft default country of `search` records that give none, checked
 * like the request parameter `prefer_country` (the one validation path); upper case.
 */
export function preferCountryOption(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const r = checkPreferCountry(v);
  if ('ok' in r || !r.value) throw new UsageError(`--prefer-country must be the ISO 3166-1 alpha-2 code of a destination (DE, FR, PL, …), ${got(v)}`);
  return r.value;
}

/** A string option that must be given and not be empty: the value, or a usage error naming it. */
export function requiredOption(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}
