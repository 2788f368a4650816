/**
 * RFC 4180 output: a field is quoted only when it must be (it holds the delimiter, a quote, CR or
 * LF), quotes doubled. The Excel flavour (`--excel`) writes what Excel opens directly in European
 * locales: a UTF-8 byte-order mark, `;`, CR LF, and cells that a spreadsheet would run as a
 * formula (starting with `=`, `+`, `-`, `@`, tab or CR; OWASP's "CSV injection") prefixed with
 * `'`. A plain number such as `-12.5` is not a formula and is written as it is.
 */
export interface CsvWriteOptions {
  delimiter: string;
  newline: '\n' | '\r\n';
  /** Escape formula-like cells (the BOM is the caller's: it belongs to the file, not a row). */
  excel: boolean;
}

export const EXCEL: CsvWriteOptions = { delimiter: ';', newline: '\r\n', excel: true };
export const UTF8_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$/;
const specials = new Map<string, RegExp>();

function specialsFor(delimiter: string): RegExp {
  let re = specials.get(delimiter);
  if (!re) {
    re = new RegExp(`["\\r\\n${delimiter === '\t' ? '\\t' : delimiter.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&')}]`);
    specials.set(delimiter, re);
  }
  return re;
}

export function csvCell(value: string, o: CsvWriteOptions): string {
  let v = value;
  if (o.excel && FORMULA_START.test(v) && !PLAIN_NUMBER.test(v)) v = `'${v}`;
  if (!specialsFor(o.delimiter).test(v)) return v;
  return `"${v.replaceAll('"', '""')}"`;
}

/** One record with its line end. */
export function csvRow(values: readonly string[], o: CsvWriteOptions): string {
  let s = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) s += o.delimiter;
    s += csvCell(values[i]!, o);
  }
  return s + o.newline;
}
