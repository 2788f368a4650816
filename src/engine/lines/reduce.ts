/**
 * Fitting the block into six lines of at most `max` characters (issue 2), in this order:
 *   1. move inline additional data to its own line (only the line that is too long);
 *   2. official street-type abbreviations of the destination's language (only a too-long street line);
 *   3. wrap at spaces, never at a glued space (postcode–town), at a soft-glued one (street–house
 *      number) only when the pair alone is longer than the line;
 *   4. drop optional elements, in the rule's order, and start again from 1;
 *   5. otherwise null: the caller answers status 40.
 * The country line is never wrapped or dropped. A block that fits at once costs one render.
 */
import { F, type FieldValues } from './fields.ts';
import type { CompiledRule } from './compiled.ts';
import { MAX_LINES } from './compiled.ts';
import { GLUE, SOFT_GLUE, renderLine } from './template.ts';

/**
 * Renders the address lines (without the country line), applying step 1 and, if asked, step 2.
 * With `glued`, lines still too long are rendered with glue characters for wrap(); lines that fit
 * are plain (glued and plain text have the same length).
 */
function render(c: CompiledRule, v: FieldValues, max: number, abbreviate: boolean, glued: boolean): string[] {
  const out: string[] = [];
  const lines = c.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let skip = -1;
    let text = renderLine(line, v, false, -1);
    if (text === '') continue;
    if (text.length > max && line.inlineAdditional && v[F.additionaldata] !== '') {
      skip = F.additionaldata;
      text = renderLine(line, v, false, skip);
    }
    let street: string | undefined;
    if (abbreviate && text.length > max && line.hasStreet) {
      street = c.abbreviate(v[F.street]!);
      if (street !== v[F.street]) text = renderLine(line, v, false, skip, street);
    }
    if (glued && text.length > max) text = renderLine(line, v, true, skip, street);
    if (text !== '') out.push(text);
    if (skip !== -1) out.push(v[F.additionaldata]!);
  }
  return out;
}

function tooLong(lines: readonly string[], max: number): boolean {
  for (let i = 0; i < lines.length; i++) if (lines[i]!.length > max) return true;
  return false;
}

const GLUES = new RegExp(`[${GLUE}${SOFT_GLUE}]`, 'g');

function unglue(s: string): string {
  return s.indexOf(GLUE) === -1 && s.indexOf(SOFT_GLUE) === -1 ? s : s.replace(GLUES, ' ');
}

/**
 * Greedy word wrap at plain spaces of the lines longer than max (the others are kept as they
 * are); null when one unbreakable piece is longer than max. Output lines carry no glue.
 */
function wrap(lines: readonly string[], max: number): string[] | null {
  const out: string[] = [];
  for (const line of lines) {
    if (line.length <= max) {
      out.push(line);
      continue;
    }
    let cur = '';
    for (const piece of line.split(' ')) {
      if (piece === '') continue;
      // A soft-glued pair longer than the line is split at its soft glue (last resort).
      const words = piece.length > max && piece.indexOf(SOFT_GLUE) !== -1 ? piece.split(SOFT_GLUE) : [piece];
      for (const word of words) {
        if (word.length > max) return null;
        if (cur === '') cur = word;
        else if (cur.length + 1 + word.length <= max) cur += ' ' + word;
        else {
          out.push(unglue(cur));
          cur = word;
        }
      }
    }
    if (cur !== '') out.push(unglue(cur));
  }
  return out;
}


/**
 * The address lines that fit, or null (status 40). `countryLines` is 1 on international mail
 * (the country line is added by the caller), 0 on domestic mail.
 */
export function fitBlock(c: CompiledRule, v: FieldValues, max: number, countryLines: number): string[] | null {
  const room = MAX_LINES - countryLines;
  // Fast path and step 1.
  let lines = render(c, v, max, false, false);
  let long = tooLong(lines, max);
  if (!long && lines.length <= room) return lines;

  let values = v;
  for (let dropped = 0; ; dropped++) {
    if (dropped > 0) {
      lines = render(c, values, max, false, false);
      long = tooLong(lines, max);
      if (!long && lines.length <= room) return lines;
    }
    if (long) {
      // Step 2 (lines still too long come back glued for step 3).
      lines = render(c, values, max, true, true);
      long = tooLong(lines, max);
      if (!long && lines.length <= room) return lines;
      // Step 3.
      if (long) {
        const wrapped = wrap(lines, max);
        if (wrapped !== null && wrapped.length <= room) return wrapped;
      }
    }
    // Step 4: drop the next optional element that is present.
    let next = -1;
    for (const f of c.optional) {
      if (values[f] !== '') {
        next = f;
        break;
      }
    }
    if (next === -1) return null;
    if (values === v) values = v.slice();
    values[next] = '';
  }
}
