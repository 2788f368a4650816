import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { carriedLarge, carriesAny, LARGE_ROW, LARGE_SECTION } from '../../eval/lookup/carried-large.ts';

const page = [
  '# Address lookup accuracy', '', '## BANO FR sample', '', '| a |', '',
  `${LARGE_SECTION} (30000000 address points, DIR)`, '', 'Measured 2026-11-24.', '', '| variant |', '|---|', '| clean | 1 |', '',
  '## Streets the index does not hold', '', '| index | query |', '|---|---|', '| BANO | structured |', `${LARGE_ROW} (30000000 points) | structured |`, '',
  '## Targets', '',
].join('\n');

describe('eval:lookup without --large keeps the national-scale parts of docs/accuracy.md', () => {
  it('carries the section up to the next heading and the unknown-streets rows', () => {
    const c = carriedLarge(page);
    expect(c.section).toEqual([`${LARGE_SECTION} (30000000 address points, DIR)`, '', 'Measured 2026-11-24.', '', '| variant |', '|---|', '| clean | 1 |', '']);
    expect(c.unknownRows).toEqual([`${LARGE_ROW} (30000000 points) | structured |`]);
    expect(carriesAny(c)).toBe(true);
  });

  it('carries nothing from a page without them, or no page', () => {
    expect(carriesAny(carriedLarge('# Address lookup accuracy\n\n## Targets\n'))).toBe(false);
    expect(carriedLarge(undefined)).toEqual({ section: [], unknownRows: [] });
  });

  it('finds both in the page as committed', () => {
    const c = carriedLarge(readFileSync(new URL('../../docs/accuracy.md', import.meta.url), 'utf8'));
    expect(c.section.length).toBeGreaterThan(5);
    expect(c.unknownRows.length).toBe(2);
  });
});
