/** docs/accuracy.md's table of relevance deductions is the module's (eval/lookup/deductions-doc.ts writes it). */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { deductionsSection } from '../../eval/lookup/deductions-doc.ts';
import { DEDUCTIONS } from '../../src/engine/lookup/score/deductions.ts';

it('docs/accuracy.md documents every relevance deduction, as deductions.ts defines it', () => {
  const page = readFileSync(new URL('../../docs/accuracy.md', import.meta.url), 'utf8');
  expect(page).toContain(deductionsSection().join('\n'));
  expect(new Set(DEDUCTIONS.map((d) => d.code)).size).toBe(DEDUCTIONS.length);
});
