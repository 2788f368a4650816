/**
 * Postcode validation and normalisation. Each destination gives an anchored pattern with capture
 * groups, matched against the cleaned input (upper case, spaces collapsed, optional input prefix
 * removed), and an output template over the groups ("$1 $2"). Compiled once per destination.
 */
export interface PostcodeSpec {
  /** Anchored pattern over the cleaned value. */
  readonly pattern: RegExp;
  /** Output form, `$1`…`$9` = capture groups (an unmatched optional group gives ''). */
  readonly output: string;
  /** Prefixes a sender may have typed that are not part of the code ("D-", "CH-"…); removed. */
  readonly inputPrefixes?: readonly string[];
}

export type PostcodeNormaliser = (raw: string) => string | null;

const SPACES = /\s+/g;

export function compilePostcode(spec: PostcodeSpec): PostcodeNormaliser {
  const prefixes = (spec.inputPrefixes ?? []).map((p) => p.toUpperCase()).sort((a, b) => b.length - a.length);
  const pattern = spec.pattern;
  const parts = spec.output.split(/(\$\d)/).map((p) => (/^\$\d$/.test(p) ? Number(p[1]) : p));
  // Output = the whole match (pattern "^(…)$" with one group, output "$1"): test() instead of
  // exec(), no match array per call.
  const identity =
    spec.output === '$1' && /^\^\(.*\)\$$/.test(pattern.source) && new RegExp(`${pattern.source}|`).exec('')!.length === 2;
  return (raw) => {
    let v = raw.toUpperCase();
    if (v.indexOf(' ') !== -1 || v.indexOf('\t') !== -1) v = v.replace(SPACES, ' ').trim();
    for (const p of prefixes) {
      if (v.startsWith(p)) {
        v = v.slice(p.length).trimStart();
        break;
      }
    }
    if (identity) return pattern.test(v) ? v : null;
    const m = pattern.exec(v);
    if (m === null) return null;
    let out = '';
    for (const p of parts) out += typeof p === 'number' ? (m[p] ?? '') : p;
    return out;
  };
}
