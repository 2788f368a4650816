/**
 * CSV/TSV bytes → the header row and batches of raw records, on the main thread. Records are
 * found by the shared RFC 4180 splitter (src/csv), so quoted delimiters and newlines stay inside
 * their record; nothing but the header is decoded here. Records are numbered 1, 2, … after the
 * header, whatever the number of physical lines they span; blank lines are not records. A
 * record the splitter cannot read (a quote never closed, a line past the size limit) keeps its
 * slot as a reader error that names its physical line(s); the rows after it are read unchanged.
 */
import { describeRecordProblem, RecordSplitter, type RecordProblem, type SplitterLimits } from '../../csv/splitter.ts';
import { parseFields } from '../../csv/fields.ts';
import { detectDelimiter } from '../../csv/detect.ts';
import { bomLength, decodeBytes, encodingHint, type CsvEncoding } from '../../csv/decode.ts';
import { BatchBuilder, MAX_RECORD_BYTES, type RawBatch } from './raw-batch.ts';

export interface CsvInput {
  /** The header row's fields ([] for an empty input). */
  header: string[];
  delimiter: string;
  batches: AsyncGenerator<RawBatch>;
}

/** The header row itself cannot be read: the job cannot bind its columns, so it does not start. */
export class CsvHeaderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvHeaderError';
  }
}

export async function openCsvBatches(
  chunks: AsyncIterable<Uint8Array>,
  batchSize: number,
  opts: {
    delimiter?: string;
    /** The encoding of the bytes given (UTF-16 input arrives transcoded, as UTF-8). */
    encoding: CsvEncoding;
    /** Hears a hint said once at the start (a header that is not in the encoding read). */
    onNotice?: (message: string) => void;
  },
  limits: SplitterLimits = { maxRecordBytes: MAX_RECORD_BYTES },
): Promise<CsvInput> {
  const it = chunks[Symbol.asyncIterator]();
  const batch = new BatchBuilder(batchSize);
  const ready: RawBatch[] = [];
  let header: string[] | undefined;
  let record = 0;
  let splitter: RecordSplitter | undefined;
  let delimiter = opts.delimiter ?? ',';
  const onRecord = (buf: Buffer, s: number, e: number, line: number, problem?: RecordProblem): void => {
    if (!header) {
      if (problem) throw new CsvHeaderError(`the header row (line ${line}) cannot be read: ${describeRecordProblem(problem, splitter!)}`);
      header = parseFields(decodeBytes(buf, s, e, opts.encoding).text, delimiter).fields;
      return;
    }
    record++;
    const full = problem
      ? batch.pushError(`Record ${record} (line ${line}): ${describeRecordProblem(problem, splitter!)}.`, record)
      : batch.push(buf, s, e, record);
    if (full) ready.push(batch.take());
  };

  // The first chunks: up to the first line end, for the byte-order mark and the delimiter.
  const peeked: Buffer[] = [];
  let done = false;
  for (;;) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    const c = Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength);
    peeked.push(c);
    if (c.indexOf(10) !== -1) break;
  }
  let head = peeked.length === 1 ? peeked[0]! : Buffer.concat(peeked);
  head = head.subarray(bomLength(head));
  if (opts.encoding === 'utf-8' && opts.onNotice) {
    const nl = head.indexOf(10);
    const hint = encodingHint(head.subarray(0, nl === -1 ? head.length : nl));
    if (hint) opts.onNotice(hint);
  }
  if (!opts.delimiter) {
    const nl = head.indexOf(10);
    delimiter = detectDelimiter(decodeBytes(head, 0, nl === -1 ? head.length : nl, opts.encoding).text);
  }
  splitter = new RecordSplitter(delimiter, limits);
  splitter.push(head, onRecord);
  // A header with a quoted line break may need more chunks.
  while (!header && !done) {
    const r = await it.next();
    if (r.done) done = true;
    else splitter.push(r.value, onRecord);
  }
  if (done) splitter.end(onRecord);

  async function* batches(): AsyncGenerator<RawBatch> {
    yield* ready.splice(0);
    if (!done) {
      for (;;) {
        const r = await it.next();
        if (r.done) break;
        splitter!.push(r.value, onRecord);
        if (ready.length) yield* ready.splice(0);
      }
      splitter!.end(onRecord);
    }
    yield* ready.splice(0);
    if (batch.length) yield batch.take();
  }
  return { header: header ?? [], delimiter, batches: batches() };
}
