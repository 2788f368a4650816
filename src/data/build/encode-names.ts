import { NAMES_RS, NAMES_US } from '../../engine/index/format.ts';

/** Localised names (language → name) as one string: pairs joined by U+001E, language and name by U+001F. */
export function encodeNames(names: Record<string, string>): string {
  return Object.entries(names).map(([l, n]) => `${l}${NAMES_US}${n}`).join(NAMES_RS);
}
