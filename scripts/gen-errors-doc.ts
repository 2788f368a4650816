/**
 * Writes the generated tables of docs/errors.md and the README's exit-code table from the error
 * registry (src/contract/errors.ts) and the exit codes (src/contract/exit-codes.ts), so that the
 * docs cannot drift from the code: test/docs/errors-doc.test.ts regenerates both and compares.
 * Only the text between `<!-- generated: NAME … -->` and `<!-- end generated: NAME -->` is
 * written; the prose around it (order of checks, credentials, …) is kept as it is.
 *   node scripts/gen-errors-doc.ts            (rewrites the tables in place)
 *   node scripts/gen-errors-doc.ts --check    (exit 1 if a table is out of date)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUILD_ERRORS, ERROR_TABLES, ERRORS, START_ERRORS, VALUE_ERRORS, type CodedErrorDef } from '../src/contract/errors.ts';
import { EXIT_CODE_TABLE } from '../src/contract/exit-codes.ts';

export const ERRORS_DOC = fileURLToPath(new URL('../docs/errors.md', import.meta.url));
export const README = fileURLToPath(new URL('../README.md', import.meta.url));

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const exitCell = (d: CodedErrorDef) => (d.exit === undefined ? '—' : String(d.exit));

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const defs = (t: Record<string, CodedErrorDef>) => Object.entries(t);

/** Every code, in registry order, that ends a command with exit code `exit`. */
function codesOf(exit: number): string[] {
  const out: string[] = [];
  for (const t of Object.values(ERROR_TABLES)) {
    for (const d of Object.values(t) as CodedErrorDef[]) if (d.exit === exit && !out.includes(d.code)) out.push(d.code);
  }
  return out;
}

function exitTable(): string {
  return table(['exit', 'meaning', 'codes'], EXIT_CODE_TABLE.map((e) => [
    String(e.exit), cell(e.meaning), codesOf(e.exit).map((c) => `\`${c}\``).join(', ') || '—',
  ]));
}

/** The generated sections, by marker name. */
export function sections(): Record<string, string> {
  return {
    http: table(['code', 'status', 'exit', 'when'], defs(ERRORS).map(([, d]) => [`\`${d.code}\``, String(d.status), exitCell(d), cell(d.when)])),
    build: table(['code', 'exit', 'when'], defs(BUILD_ERRORS).filter(([k]) => !k.startsWith('OSM_PBF_')).map(([, d]) => [`\`${d.code}\``, exitCell(d), cell(d.when)])),
    osm: table(['code', 'when'], defs(BUILD_ERRORS).filter(([k]) => k.startsWith('OSM_PBF_')).map(([, d]) => [`\`${d.code}\``, cell(d.when)])),
    start: table(['code', 'exit', 'when'], defs(START_ERRORS).map(([, d]) => [`\`${d.code}\``, exitCell(d), cell(d.when)])),
    value: table(['code', 'when'], defs(VALUE_ERRORS).map(([, d]) => [`\`${d.code}\``, cell(d.when)])),
    exit: exitTable(),
  };
}

const MARK = /(<!-- generated: ([a-z]+) [^>]*-->\n)([\s\S]*?)(<!-- end generated: \2 -->)/g;

/** `text` with every marked section replaced by its generated table; throws on an unknown name. */
export function fill(text: string, generated: Record<string, string> = sections()): string {
  return text.replace(MARK, (_m, open: string, name: string, _old: string, close: string) => {
    const body = generated[name];
    if (body === undefined) throw new Error(`unknown generated section '${name}'`);
    return `${open}${body}\n${close}`;
  });
}

/** The names of the marked sections of `text`, in order. */
export function markedSections(text: string): string[] {
  return [...text.matchAll(MARK)].map((m) => m[2]!);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let stale = false;
  for (const file of [ERRORS_DOC, README]) {
    const cur = readFileSync(file, 'utf8');
    const next = fill(cur);
    if (cur === next) continue;
    if (process.argv.includes('--check')) {
      console.error(`${file} is out of date: run node scripts/gen-errors-doc.ts`);
      stale = true;
    } else {
      writeFileSync(file, next);
      console.log(`wrote ${file}`);
    }
  }
  if (stale) process.exit(1);
}
