/**
 * Line templates, compiled once at module load into segment lists (rules.ts documents the
 * syntax). Rendering a line is a loop over a few segments and string concatenation: no regex, no
 * allocation beyond the result string.
 */
import { F, FIELD_NAMES, type FieldName, type FieldValues } from './fields.ts';

/** Glue: a space that wrapping never breaks (`~`, postcode–town). Private-use code point, removed from all input. */
export const GLUE = '\uE000';
/** Soft glue (`+`, street–house number): kept together unless the pair alone is longer than the line. */
export const SOFT_GLUE = '\uE001';

export interface Segment {
  readonly field: number;
  /** Printed before the value when this is the first field printed (only the first segment has one). */
  readonly prefix: string;
  /** Printed between the previous printed field and this one. */
  readonly sep: string;
  /** The same with glued spaces (for wrapping). */
  readonly sepGlued: string;
  /** Printed after the value (only the last segment has one). */
  readonly suffix: string;
}

export interface CompiledLine {
  readonly segments: readonly Segment[];
  /** additionaldata shares this line with other fields (reduction step 1 may move it out). */
  readonly inlineAdditional: boolean;
  readonly hasStreet: boolean;
  readonly template: string;
}

const TOKEN = /\{([a-z]+)\}/g;

export function compileLine(template: string): CompiledLine {
  const fields: number[] = [];
  const literals: string[] = [];
  let last = 0;
  for (const m of template.matchAll(TOKEN)) {
    const name = m[1] as FieldName;
    const id = (F as Record<string, number>)[name];
    if (id === undefined) throw new Error(`unknown field {${name}} in template "${template}"`);
    literals.push(template.slice(last, m.index));
    fields.push(id);
    last = m.index + m[0].length;
  }
  if (fields.length === 0) throw new Error(`template "${template}" has no field`);
  literals.push(template.slice(last));
  const plain = (s: string) => s.replaceAll('~', ' ').replaceAll('+', ' ');
  const glued = (s: string) => s.replaceAll('~', GLUE).replaceAll('+', SOFT_GLUE);
  const segments: Segment[] = fields.map((field, i) => ({
    field,
    prefix: i === 0 ? plain(literals[0] ?? '') : '',
    sep: i === 0 ? '' : plain(literals[i] ?? ''),
    sepGlued: i === 0 ? '' : glued(literals[i] ?? ''),
    suffix: i === fields.length - 1 ? plain(literals[i + 1] ?? '') : '',
  }));
  return {
    segments,
    inlineAdditional: fields.length > 1 && fields.includes(F.additionaldata),
    hasStreet: fields.includes(F.street),
    template,
  };
}

/**
 * Renders one line. `skip` is a field left out (-1: none); `street` replaces the street value
 * (abbreviated form) when not undefined.
 */
export function renderLine(
  line: CompiledLine,
  v: FieldValues,
  glued: boolean,
  skip: number,
  street?: string,
): string {
  let out = '';
  const segs = line.segments;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    if (s.field === skip) continue;
    const x = s.field === F.street && street !== undefined ? street : v[s.field]!;
    if (x === '') continue;
    out += out === '' ? s.prefix : glued ? s.sepGlued : s.sep;
    out += x;
    out += s.suffix;
  }
  return out;
}

export function fieldName(id: number): FieldName {
  return FIELD_NAMES[id]!;
}
