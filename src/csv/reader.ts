/**
 * Streaming CSV reading for whole files (the index-source readers): plain or gzip (by content),
 * a header row or none, a fixed or detected delimiter, UTF-8 (BOM skipped) or a single-byte
 * encoding. Rows are handed to a callback one at a time and never kept; malformed rows are
 * reported with a stable reason and the physical line they start on instead of being dropped
 * silently. A quote that is never closed costs one row (`unclosed-quote`, see splitter.ts), not
 * the rest of the file.
 */
import { createReadStream, statSync } from 'node:fs';
import { RecordSplitter, type RecordProblem, type SplitterLimits } from './splitter.ts';
import { parseFields } from './fields.ts';
import { detectDelimiter } from './detect.ts';
import { bomLength, decodeBytes, type CsvEncoding } from './decode.ts';
import { gunzipIfGzip } from './gzip.ts';

export type CsvRowProblem = 'bad-quoting' | 'bad-utf8' | 'too-long' | 'unclosed-quote';

export interface CsvFileOptions {
  /** Fixed delimiter; detected from the first line when absent. */
  delimiter?: string;
  encoding?: CsvEncoding;
  /** The first record is a header (handed to `onHeader`, not to `onRow`). */
  header: boolean;
  /** Limits of a record and of a quoted field spanning lines (splitter.ts defaults: 1 MiB, 100 lines). */
  limits?: SplitterLimits;
  /** Progress: bytes read of the file (compressed bytes for gzip) and its size. */
  progress?: (bytesDone: number, bytesTotal: number) => void;
}

export interface CsvFileHandlers {
  onHeader?(fields: string[], delimiter: string): void;
  /** A row; `fields` is not kept by the reader (the callee may keep it). `record` is 1-based, header excluded. */
  onRow(fields: string[], record: number): void;
  /** A row that could not be read as CSV: counted by the caller. `line`: the physical line it starts on (1-based, header included). */
  onProblem(problem: CsvRowProblem, record: number, line: number): void;
}

export async function readCsvFile(path: string, opts: CsvFileOptions, h: CsvFileHandlers): Promise<void> {
  const total = statSync(path).size;
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  let lastReport = 0;
  const encoding = opts.encoding ?? 'utf-8';
  let splitter: RecordSplitter | undefined;
  let delimiter = opts.delimiter ?? ',';
  let sawHeader = !opts.header;
  let record = 0;
  let first = true;
  const onRecord = (buf: Buffer, s: number, e: number, line: number, problem?: RecordProblem): void => {
    if (!sawHeader) {
      sawHeader = true;
      if (problem) throw new Error(`the header row (line ${line}) cannot be read: ${problem.kind === 'too-long' ? 'too long' : 'a quote in it is never closed'}`);
      h.onHeader?.(parseFields(decodeBytes(buf, s, e, encoding).text, delimiter).fields, delimiter);
      return;
    }
    record++;
    if (problem) return h.onProblem(problem.kind, record, line);
    const d = decodeBytes(buf, s, e, encoding);
    if (d.invalid) return h.onProblem('bad-utf8', record, line);
    const p = parseFields(d.text, delimiter);
    if (p.badQuoting) return h.onProblem('bad-quoting', record, line);
    h.onRow(p.fields, record);
  };
  try {
    for await (let chunk of gunzipIfGzip(raw)) {
      if (first) {
        first = false;
        const bom = bomLength(chunk);
        if (bom) chunk = chunk.subarray(bom);
        if (!opts.delimiter) {
          const nl = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).indexOf(10);
          const line = decodeBytes(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), 0, nl === -1 ? chunk.length : nl, encoding).text;
          delimiter = detectDelimiter(line);
        }
        splitter = new RecordSplitter(delimiter, opts.limits);
      }
      splitter!.push(chunk, onRecord);
      if (opts.progress && raw.bytesRead - lastReport >= 1 << 24) {
        lastReport = raw.bytesRead;
        opts.progress(raw.bytesRead, total);
      }
    }
    splitter?.end(onRecord);
    opts.progress?.(raw.bytesRead, total);
  } finally {
    raw.destroy();
  }
}
