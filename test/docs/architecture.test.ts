/**
 * The house rules of docs/architecture.md that a machine can check: no import circle in src/
 * (type-only imports included), arrows point down the layers only, and no file in src/ over 400
 * lines except generated tables.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Relative imports of a file (static `import … from`, `export … from`, and `import('…')`), resolved. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) out.push(resolve(dirname(file), m[1] ?? m[2]!));
  return out;
}

/** The layer of a src/ file (docs/architecture.md, "Rooms and layers"): higher may import lower. */
function layerOf(rel: string): number {
  if (rel.startsWith('cli/')) return 3;
  if (rel.startsWith('adapters/')) return 2;
  if (/^(billing|pool|csv|data|config)\//.test(rel) || rel === 'log.ts') return 1;
  return 0; // engine/, contract/
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => t.startsWith(SRC))]));

describe('docs/architecture.md rules', () => {
  it('has no import circle in src/ (type-only imports included)', () => {
    const state = new Map<string, 1 | 2>();
    const circles: string[] = [];
    const stack: string[] = [];
    const visit = (f: string): void => {
      state.set(f, 1);
      stack.push(f);
      for (const t of graph.get(f) ?? []) {
        if (state.get(t) === 1) circles.push([...stack.slice(stack.indexOf(t)), t].map((x) => relative(SRC, x)).join(' → '));
        else if (!state.has(t)) visit(t);
      }
      stack.pop();
      state.set(f, 2);
    };
    for (const f of files) if (!state.has(f)) visit(f);
    expect(circles).toEqual([]);
  });

  it('points arrows down the layers only (core ← services ← adapters ← entry)', () => {
    const up: string[] = [];
    for (const [f, targets] of graph) {
      const from = relative(SRC, f);
      for (const t of targets) {
        const to = relative(SRC, t);
        if (layerOf(to) > layerOf(from)) up.push(`${from} → ${to}`);
      }
    }
    expect(up).toEqual([]);
  });

  it('keeps every src/ file at 400 lines or fewer, generated tables aside', () => {
    const long = files
      .filter((f) => !f.endsWith('.generated.ts'))
      .map((f) => [relative(SRC, f), readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, n]) => n > 400)
      .map(([f, n]) => `${f}: ${n}`);
    expect(long).toEqual([]);
  });
});
