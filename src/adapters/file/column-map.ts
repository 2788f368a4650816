/**
 * CSV columns → request parameters. A column whose header name is a parameter of the operation
 * (case and surrounding spaces ignored) feeds it; `--map param=Column` names another column, and
 * `--map address=Strasse+Nr+PLZ+Ort` joins several (with a space, empty cells left out), as
 * Addok's `columns` does. Every other column is carried through to the output untouched.
 */
import { OP_PARAMS, type Op } from '../../contract/params.ts';

/** Parameter → the column names that feed it, in order. */
export type ColumnMap = Map<string, string[]>;

/** Parses `street=Strasse,zip=PLZ,address=Strasse+Nr+PLZ+Ort`; an error text when malformed. */
export function parseColumnMap(spec: string | undefined, op: Op): ColumnMap | string {
  const map: ColumnMap = new Map();
  if (!spec) return map;
  const params = OP_PARAMS[op].map((p) => p.name);
  for (const part of spec.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || eq === part.length - 1) return `--map: '${part}' is not param=Column or param=Col1+Col2`;
    const param = part.slice(0, eq).trim().toLowerCase();
    if (!params.includes(param)) return `--map: '${param}' is not a parameter of --op ${op} (${params.join(', ')})`;
    const cols = part.slice(eq + 1).split('+').map((c) => c.trim());
    if (cols.some((c) => c === '')) return `--map: '${part}' names an empty column`;
    map.set(param, cols);
  }
  return map;
}

/** Binds parameters to column indices of `header`; an error text when the header cannot be used. */
export function bindColumns(header: string[], map: ColumnMap, op: Op): Array<[string, number[]]> | string {
  const names = header.map((h) => h.trim().toLowerCase());
  const find = (col: string): number => {
    const exact = header.indexOf(col);
    return exact >= 0 ? exact : names.indexOf(col.trim().toLowerCase());
  };
  const out: Array<[string, number[]]> = [];
  for (const { name } of OP_PARAMS[op]) {
    const given = map.get(name);
    if (given) {
      const idx = given.map(find);
      const missing = given.filter((_, i) => idx[i]! < 0);
      if (missing.length) return `--map ${name}=…: no column ${missing.map((m) => `'${m}'`).join(', ')} in the header (${header.join(', ')})`;
      out.push([name, idx]);
    } else {
      const i = names.indexOf(name);
      if (i >= 0) out.push([name, [i]]);
    }
  }
  if (out.length === 0) {
    return `no column of the header (${header.join(', ')}) is a parameter of --op ${op} (${OP_PARAMS[op].map((p) => p.name).join(', ')}); name them with --map param=Column`;
  }
  return out;
}
