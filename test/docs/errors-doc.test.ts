import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/shared-data.ts';
import { ERROR_TABLES, findError, type CodedErrorDef } from '../../src/contract/errors.ts';
import * as exitCodes from '../../src/contract/exit-codes.ts';
import { ERRORS_DOC, fill, markedSections, README } from '../../scripts/gen-errors-doc.ts';

const all = Object.values(ERROR_TABLES).flatMap((t) => Object.values(t) as CodedErrorDef[]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('docs/errors.md and the README exit-code table', () => {
  it('are what scripts/gen-errors-doc.ts generates from src/contract (no drift; regenerate with node scripts/gen-errors-doc.ts)', () => {
    for (const file of [ERRORS_DOC, README]) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).toBe(fill(text));
    }
  });
  it('hold every generated table (docs/errors.md: all six; the README: the exit codes)', () => {
    expect(markedSections(readFileSync(ERRORS_DOC, 'utf8'))).toEqual(['http', 'build', 'start', 'exit', 'value', 'osm']);
    expect(markedSections(readFileSync(README, 'utf8'))).toEqual(['exit']);
  });
});

describe('the error registry', () => {
  it('names each code once, ADDR_ERR_* (Kafka value codes ADDR_DECODE_* / ADDR_ENCODE_*), with a when-text', () => {
    const codes = all.map((d) => d.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const d of all) {
      expect(d.code).toMatch(/^ADDR_(ERR|DECODE|ENCODE)_[A-Z0-9_]+[A-Z0-9]$/);
      expect(d.when.length, d.code).toBeGreaterThan(10);
    }
  });
  it('gives every code an exit code of src/contract/exit-codes.ts, and every exit code a line in the table', () => {
    const constants = Object.entries(exitCodes).filter(([k]) => k.startsWith('EXIT_') && k !== 'EXIT_CODE_TABLE').map(([, v]) => v as number);
    const tabled = exitCodes.EXIT_CODE_TABLE.map((e) => e.exit);
    expect(new Set(tabled).size).toBe(tabled.length);
    for (const c of constants) expect(tabled).toContain(c);
    for (const d of all) if (d.exit !== undefined) expect(constants, d.code).toContain(d.exit);
  });
  it('defines every ADDR_ERR_* / ADDR_DECODE_* / ADDR_ENCODE_* code the sources use (one place)', () => {
    const unknown: string[] = [];
    for (const dir of ['src', 'bin', 'workers']) {
      for (const f of sourceFiles(join(PROJECT_ROOT, dir))) {
        for (const m of readFileSync(f, 'utf8').matchAll(/ADDR_(?:ERR|DECODE|ENCODE)_[A-Z0-9_]*[A-Z0-9]\b/g)) {
          if (!findError(m[0])) unknown.push(`${f}: ${m[0]}`);
        }
      }
    }
    expect(unknown).toEqual([]);
  });
});
