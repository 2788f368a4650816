/**
 * Streaming CSV reading for whole files (the index-source readers): plain or gzip (by content),
 * a header row or none, a fixed or detected delimiter, UTF-8 (BOM skipped) or a single-byte
 * encoding. Rows are handed to a callback one at a time and never kept; malformed rows are
 * reported with a stable reason instead of being dropped silently.
 */
import { createReadStream, statSync } from 'node:fs';
import { RecordSplitter } from './splitter.ts';
import { parseFields } from './fields.ts';
import { detectDelimiter } from './detect.ts';
import { bomLength, decodeBytes, type CsvEncoding } from './decode.ts';
import { gunzipIfGzip } from './gzip.ts';

export type CsvRowProblem = 'bad-quoting' | 'bad-utf8' | 'too-long';

export interface CsvFileOptions {
  /** Fixed delimiter; detected from the first line when absent. */
  delimiter?: string;
  encoding?: CsvEncoding;
  /** The first record is a header (handed to `onHeader`, not to `onRow`). */
  header: boolean;
  /** Progress: bytes read of the file (compressed bytes for gzip) and its size. */
  progress?: (bytesDone: number, bytesTotal: number) => void;
}

export interface CsvFileHandlers {
  onHeader?(fields: string[], delimiter: string): void;
  /** A row; `fields` is not kept by the reader (the callee may keep it). `record` is 1-based, header excluded. */
  onRow(fields: string[], record: number): void;
  /** A row that could not be read as CSV: counted by the caller. */
  onProblem(problem: CsvRowProblem, record: number): void;
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
  const onRecord = (buf: Buffer, s: number, e: number, tooLong: boolean, unclosed: boolean): void => {
    if (!sawHeader) {
      sawHeader = true;
      h.onHeader?.(parseFields(decodeBytes(buf, s, e, encoding).text, delimiter).fields, delimiter);
      return;
    }
    record++;
    if (tooLong) return h.onProblem('too-long', record);
    const d = decodeBytes(buf, s, e, encoding);
    if (d.invalid) return h.onProblem('bad-utf8', record);
    const p = parseFields(d.text, delimiter);
    if (p.badQuoting || unclosed) return h.onProblem('bad-quoting', record);
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
        splitter = new RecordSplitter(delimiter);
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
