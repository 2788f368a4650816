/**
 * A job's input, whatever its format: gzip or not (by content), NDJSON, a JSON array or CSV/TSV
 * (given, or told apart by the first byte: `{` or `[` is JSON, anything else CSV), turned into
 * batches of raw records plus what the workers and the output need to know about them.
 */
import type { Op } from '../../contract/params.ts';
import { RECORD_KEYS } from '../../contract/records.ts';
import { EXPLAIN_CSV_KEYS } from '../../contract/explain.ts';
import { byteEncoding, type CsvEncoding } from '../../csv/decode.ts';
import { utf16ToUtf8 } from '../../csv/utf16.ts';
import { gunzipIfGzip } from '../../csv/gzip.ts';
import { csvRow, UTF8_BOM, type CsvWriteOptions } from '../../csv/writer.ts';
import type { CsvTaskSpec } from './worker/batch-task.ts';
import { bindColumns } from './column-map.ts';
import { openCsvBatches } from './csv-reader.ts';
import { detectFormat } from './input.ts';
import { readJsonArrayBatches } from './json-array-reader.ts';
import { readNdjsonBatches } from './ndjson-reader.ts';
import type { InputFormat, RawBatch } from './raw-batch.ts';

export type FormatChoice = 'auto' | 'json' | 'csv';

/** How a CSV job reads its input and writes its output. */
export interface CsvJobOptions {
  /** Input delimiter; detected from the header row when absent. */
  delimiter?: string;
  encoding: CsvEncoding;
  /** Output delimiter and line end, or undefined for the input's delimiter with LF. */
  out?: { delimiter?: string; newline?: '\n' | '\r\n' };
  /** Excel flavour: BOM, `;`, CR LF, formula cells escaped (overrides `out`). */
  excel: boolean;
  /** Hears a hint said once at the start (the header is likely in another encoding: which `--encoding`). */
  notice?: (message: string) => void;
  /** Prefix of the appended result columns (default `result_`). */
  prefix: string;
  /**
   * Binds request parameters to header columns (decided by the caller, which knows `--map` and
   * reports an unusable header as a usage error by throwing).
   */
  bind(header: string[]): Array<[param: string, columns: number[]]>;
}

export interface RecordSource {
  format: InputFormat;
  unit: 'line' | 'element' | 'record';
  batches: AsyncGenerator<RawBatch>;
  csv?: CsvTaskSpec;
  /** Written once at the start of a fresh output / errors file (CSV header rows). */
  outputHeader?: string;
  errorsHeader?: string;
}

export async function openRecordSource(
  input: AsyncIterable<Uint8Array>,
  o: { op: Op; format: FormatChoice; batchSize: number; csv?: CsvJobOptions; explain?: boolean },
): Promise<RecordSource> {
  const given = o.csv?.encoding;
  // UTF-16 (given, or by its byte-order mark) becomes UTF-8 here, before anything scans bytes.
  const { form: utf16, chunks: plain } = await utf16ToUtf8(gunzipIfGzip(input), given === 'utf-16le' || given === 'utf-16be' ? given : undefined);
  let chunks: AsyncIterable<Uint8Array> = plain;
  if (o.format !== 'csv') {
    const d = await detectFormat(plain);
    chunks = d.chunks;
    const json = o.format === 'json' || d.first === undefined || d.first === 0x7b /* { */ || d.first === 0x5b; /* [ */
    if (json) {
      return d.format === 'array'
        ? { format: 'array', unit: 'element', batches: readJsonArrayBatches(chunks, o.batchSize) }
        : { format: 'ndjson', unit: 'line', batches: readNdjsonBatches(chunks, o.batchSize) };
    }
  }
  const c: CsvJobOptions = o.csv ?? {
    encoding: 'utf-8', excel: false, prefix: 'result_',
    bind(header) {
      const b = bindColumns(header, new Map(), o.op);
      if (typeof b === 'string') throw new Error(b);
      return b;
    },
  };
  // A UTF-16 byte-order mark makes the bytes UTF-8 whatever encoding was given.
  const encoding: CsvEncoding = utf16 ? 'utf-8' : byteEncoding(c.encoding);
  const { header, delimiter, batches } = await openCsvBatches(chunks, o.batchSize, {
    encoding,
    ...(c.delimiter ? { delimiter: c.delimiter } : {}),
    ...(c.notice ? { onNotice: c.notice } : {}),
  });
  const out: CsvWriteOptions = c.excel
    ? { delimiter: ';', newline: '\r\n', excel: true }
    : { delimiter: c.out?.delimiter ?? delimiter, newline: c.out?.newline ?? '\n', excel: false };
  // --explain (search): the explanation's two compact columns after the record's (contract/explain.ts)
  const resultKeys = o.explain && o.op === 'search' ? [...RECORD_KEYS[o.op], ...EXPLAIN_CSV_KEYS] : RECORD_KEYS[o.op];
  const csv: CsvTaskSpec = { delimiter, encoding, columns: header.length, bindings: header.length ? c.bind(header) : [], resultKeys, out };
  const bom = c.excel ? UTF8_BOM : '';
  const p = c.prefix;
  return {
    format: 'csv', unit: 'record', batches, csv,
    outputHeader: header.length ? bom + csvRow([...header, ...resultKeys.map((k) => p + k), `${p}errorcode`, `${p}errormessage`], out) : '',
    errorsHeader: header.length ? bom + csvRow(['record', ...header, 'errorcode', 'errormessage'], out) : '',
  };
}
