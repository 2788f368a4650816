/**
 * The file job's formats from its options: `--format`, the input and output names, and the CSV
 * options (`--encoding`, `--delimiter`, `--map`, `--prefix`, `--excel`). A choice that cannot work
 * is a JobOptionError, which the CLI prints as a usage error (exit 2).
 */
import type { Op } from '../../contract/params.ts';
import { parseEncodingOption } from '../../csv/decode.ts';
import { parseDelimiterOption } from '../../csv/detect.ts';
import { bindColumns, parseColumnMap } from './column-map.ts';
import type { CsvJobOptions, FormatChoice } from './record-source.ts';

/** Options of a file job that do not fit together or do not fit the files (the CLI: usage error, exit 2). */
export class JobOptionError extends Error {
  override name = 'JobOptionError';
}

/** The format options as given on the command line. */
export interface FormatOptions {
  format?: string | undefined;
  encoding?: string | undefined;
  delimiter?: string | undefined;
  map?: string | undefined;
  prefix?: string | undefined;
  excel?: boolean | undefined;
}

function got(v: string): string {
  return v === '' ? 'got nothing' : `got ${v}`;
}

/** What `--format`, the file names and the CSV options say about the job's formats. */
export function fileFormats(
  op: Op, inputPath: string, outputPath: string,
  v: FormatOptions,
): { format: FormatChoice; csv: CsvJobOptions; key: string } {
  const ext = (p: string) => /\.([a-z]+)(\.gz)?$/i.exec(p)?.[1]?.toLowerCase();
  const byExt: Record<string, 'json' | 'csv' | 'tsv'> = { csv: 'csv', tsv: 'tsv', tab: 'tsv', ndjson: 'json', jsonl: 'json', json: 'json' };
  const given = v.format?.toLowerCase();
  if (given !== undefined && !['ndjson', 'json', 'csv', 'tsv'].includes(given)) throw new JobOptionError(`--format must be ndjson, json, csv or tsv, ${got(v.format!)}`);
  const kind = given === 'ndjson' ? 'json' : (given as 'json' | 'csv' | 'tsv' | undefined) ?? byExt[ext(inputPath) ?? ''];
  const outKind = byExt[ext(outputPath) ?? ''];
  if (kind === 'json' && (outKind === 'csv' || outKind === 'tsv')) throw new JobOptionError('CSV/TSV output needs CSV/TSV input (JSON input gives NDJSON output)');
  if ((kind === 'csv' || kind === 'tsv') && outKind === 'json') throw new JobOptionError('CSV/TSV input gives CSV/TSV output (the input columns with the results appended), not JSON');
  const encoding = parseEncodingOption(v.encoding ?? 'utf-8');
  if (!encoding) throw new JobOptionError(`--encoding must be utf-8, windows-1252, latin1, utf-16le or utf-16be, ${got(v.encoding ?? '')}`);
  const delimiter = v.delimiter === undefined ? (kind === 'tsv' ? '\t' : undefined) : parseDelimiterOption(v.delimiter);
  if (v.delimiter !== undefined && !delimiter) throw new JobOptionError(`--delimiter must be ',', ';', '|' or tab, ${got(v.delimiter)}`);
  const map = parseColumnMap(v.map, op);
  if (typeof map === 'string') throw new JobOptionError(map);
  const outDelimiter = outKind === 'tsv' ? '\t' : outKind === 'csv' && kind === 'tsv' ? ',' : undefined;
  const csv: CsvJobOptions = {
    encoding, excel: v.excel ?? false, prefix: v.prefix ?? 'result_',
    notice: (message) => process.stderr.write(`addrflow run: warning: ${message}\n`),
    ...(delimiter ? { delimiter } : {}),
    ...(outDelimiter ? { out: { delimiter: outDelimiter } } : {}),
    bind(header) {
      const b = bindColumns(header, map, op);
      if (typeof b === 'string') throw new JobOptionError(b);
      return b;
    },
  };
  const format: FormatChoice = kind === undefined ? 'auto' : kind === 'json' ? 'json' : 'csv';
  const key = [
    `format=${format}`, `encoding=${encoding}`, `delimiter=${JSON.stringify(delimiter ?? '')}`, `out=${JSON.stringify(outDelimiter ?? '')}`,
    `map=${v.map ?? ''}`, `prefix=${csv.prefix}`, `excel=${csv.excel}`, `gzip=${outputPath.endsWith('.gz')}`,
  ].join(' ');
  return { format, csv, key };
}
