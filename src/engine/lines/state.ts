/**
 * `statecode` / `state` / `statename` → the value the `{state}` field prints, per the
 * destination's StateSpec. Returns null for invalid input (status 31): a statecode that is not
 * ISO 3166-2 shaped, belongs to another country, or is not a subdivision the rule knows; or a
 * state the rule prints as a code but cannot resolve.
 */
import type { CompiledRule } from './compiled.ts';

const ISO_3166_2 = /^([A-Z]{2})-([A-Z0-9]{1,3})$/;

export function resolveState(c: CompiledRule, statecode: string, state: string, statename: string): string | null {
  const spec = c.rule.state;
  const subs = c.subdivisions;
  let suffix = '';
  if (statecode !== '') {
    const m = ISO_3166_2.exec(statecode.toUpperCase());
    if (m === null || m[1] !== c.code) return null;
    suffix = m[2]!;
    if (subs !== undefined && !subs.has(suffix)) return null;
    if (spec.suffixPattern !== undefined && !spec.suffixPattern.test(suffix)) return null;
  }
  if (spec.print === 'none') return '';
  if (spec.print === 'code') {
    if (suffix !== '') return suffix;
    for (let i = 0; i < 2; i++) {
      const cand = i === 0 ? state : statename;
      if (cand === '') continue;
      const up = cand.toUpperCase();
      if (subs !== undefined) {
        if (subs.has(up)) return up;
        const byName = c.subdivisionByName?.get(cand.toLowerCase());
        if (byName !== undefined) return byName;
      } else if (spec.suffixPattern?.test(up)) {
        return up;
      }
    }
    return state === '' && statename === '' ? '' : null;
  }
  // print === 'name'
  if (suffix !== '' && subs !== undefined) return subs.get(suffix) ?? '';
  if (statename !== '') return statename;
  if (state !== '') return (subs !== undefined ? subs.get(state.toUpperCase()) : undefined) ?? state;
  return '';
}
