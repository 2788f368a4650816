/**
 * The rule table compiled once at module load: templates into segments, postcode patterns into
 * normalisers, abbreviation lists into one regex per destination, field lists into flag arrays.
 * Nothing here is built per call.
 */
import { compileAbbreviator, type Abbreviator } from './abbreviations.ts';
import { F, FIELD_COUNT, type FieldName } from './fields.ts';
import { compilePostcode, type PostcodeNormaliser } from './postcode.ts';
import { RULES, type CountryRule } from './rules.ts';
import { compileLine, type CompiledLine } from './template.ts';

export const DEFAULT_MAX_CHARS_PER_LINE = 40;
export const MAX_LINES = 6;

export interface CompiledRule {
  readonly code: string;
  readonly rule: CountryRule;
  readonly lines: readonly CompiledLine[];
  /** Field ids printed in capitals (zip excluded: the normaliser already upper-cases it). */
  readonly upperDomestic: readonly number[];
  readonly upperInternational: readonly number[];
  readonly stripAccents: boolean;
  readonly postcode: PostcodeNormaliser;
  readonly postcodePrefixInternational: string;
  readonly abbreviate: Abbreviator;
  /** Field ids in drop order. */
  readonly optional: readonly number[];
  /** [field id, words removed]. */
  readonly clean: readonly (readonly [number, RegExp])[];
  /** [field id, suffix appended when the value ends with a digit]. */
  readonly suffix: readonly (readonly [number, string])[];
  readonly dropIfSame: readonly (readonly [number, number])[];
  readonly requireStreet: boolean;
  readonly requireCity: boolean;
  readonly requireZip: boolean;
  readonly requireState: boolean;
  /** Subdivisions: suffix → name, and lower-case name → suffix. */
  readonly subdivisions: ReadonlyMap<string, string> | undefined;
  readonly subdivisionByName: ReadonlyMap<string, string> | undefined;
  readonly defaultMax: number;
}

function ids(names: readonly FieldName[]): number[] {
  return [...new Set(names.map((n) => F[n]))].filter((f) => f !== F.zip && f < FIELD_COUNT);
}

export function compileRule(code: string, rule: CountryRule): CompiledRule {
  const upperDomestic = ids(rule.upper);
  const upperInternational = ids([...rule.upper, ...rule.upperInternational]);
  const clean = Object.entries(rule.clean ?? {}).map(([k, re]) => [F[k as FieldName], re as RegExp] as const);
  const suffix = Object.entries(rule.suffix ?? {}).map(([k, x]) => [F[k as FieldName], x ?? ''] as const);
  const subs = rule.state.subdivisions;
  return {
    code,
    rule,
    lines: rule.lines.map(compileLine),
    upperDomestic,
    upperInternational,
    stripAccents: rule.stripAccentsInUpper === true,
    postcode: compilePostcode(rule.postcode),
    postcodePrefixInternational: rule.postcodePrefixInternational ?? '',
    abbreviate: compileAbbreviator(rule.abbreviationLanguages),
    optional: rule.optional.map((n) => F[n]),
    clean,
    suffix,
    dropIfSame: (rule.dropIfSame ?? []).map(([a, b]) => [F[a], F[b]] as const),
    requireStreet: rule.required.includes('street'),
    requireCity: rule.required.includes('city'),
    requireZip: rule.required.includes('zip'),
    requireState: rule.required.includes('state'),
    subdivisions: subs ? new Map(Object.entries(subs)) : undefined,
    subdivisionByName: subs ? new Map(Object.entries(subs).map(([k, n]) => [n.toLowerCase(), k])) : undefined,
    defaultMax: Math.min(DEFAULT_MAX_CHARS_PER_LINE, rule.maxCharsPerLine ?? DEFAULT_MAX_CHARS_PER_LINE),
  };
}

/** Destination code → compiled rule. A supported destination missing here answers status 50. */
export function compileRules(rules: Readonly<Record<string, CountryRule>>): ReadonlyMap<string, CompiledRule> {
  return new Map(Object.entries(rules).map(([cc, r]) => [cc, compileRule(cc, r)]));
}

export const COMPILED_RULES: ReadonlyMap<string, CompiledRule> = compileRules(RULES);
