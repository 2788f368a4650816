/**
 * RFC 4180 record boundaries over raw bytes, streamed chunk by chunk.
 *
 * A record ends at a line feed (LF or CR LF) that is not inside a quoted field. A quote opens a
 * quoted field only at the start of a field (the record's first byte or right after the
 * delimiter); inside, a doubled quote is a literal quote. A quote in the middle of an unquoted
 * field is an ordinary character (as Excel and most exporters read it). The field parser
 * (fields.ts) follows exactly the same rules, so both agree on where a record ends.
 *
 * The delimiter, the quote and the line feed are ASCII, so UTF-8, Latin-1 and Windows-1252 bytes
 * are scanned without decoding. Lines and quotes are found with native byte searches.
 * Blank records (empty lines) are skipped: they are not records.
 */

export const LF = 10;
export const CR = 13;
export const QUOTE = 34;

const OUT = 0, IN = 1, AFTER_QUOTE = 2;

/**
 * Called for each record: its bytes are buf[start, end) (line end excluded). `tooLong` is set
 * (and the bytes are empty) when the record grew past the limit; its bytes were dropped.
 * `unclosed` is set for a last record that ended inside a quoted field.
 */
export type RecordHandler = (buf: Buffer, start: number, end: number, tooLong: boolean, unclosed: boolean) => void;

export class RecordSplitter {
  private readonly delimiter: number;
  private readonly maxRecordBytes: number;
  private carry: Buffer | undefined;
  /** Where scanning resumes in the carried bytes (bytes before it are already scanned). */
  private resumeAt = 0;
  private state = OUT;
  /** The current record passed the limit: its bytes are not kept. */
  private skipping = false;

  constructor(delimiter: string, maxRecordBytes = 1 << 20) {
    if (delimiter.length !== 1 || delimiter.charCodeAt(0) > 127) throw new Error(`a CSV delimiter is one ASCII character; got '${delimiter}'`);
    this.delimiter = delimiter.charCodeAt(0);
    this.maxRecordBytes = maxRecordBytes;
  }

  /** Scans a chunk; complete records go to `emit`. The chunk may be reused by the caller after. */
  push(chunk: Uint8Array, emit: RecordHandler): void {
    const c = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const buf = this.carry ? Buffer.concat([this.carry, c]) : c;
    const n = buf.length;
    const d = this.delimiter;
    let start = 0;
    let i = this.carry ? this.resumeAt : 0;
    let state = this.state;
    let nextQuote = -2; // cached position of the next quote at or after i (-1: none; -2: unknown)
    while (i < n) {
      if (state === OUT) {
        const nl = buf.indexOf(LF, i);
        if (nextQuote !== -1 && nextQuote < i) nextQuote = buf.indexOf(QUOTE, i);
        const q = nextQuote;
        if (q === -1 || (nl !== -1 && nl < q)) {
          if (nl === -1) {
            i = n;
            break;
          }
          this.finish(buf, start, nl, false, emit);
          start = i = nl + 1;
          continue;
        }
        // A quote before the line end: it opens a quoted field only at a field's start.
        if (q === start || buf[q - 1] === d || (q > 0 && buf[q - 1] === LF)) state = IN;
        i = q + 1;
      } else if (state === IN) {
        const q = buf.indexOf(QUOTE, i);
        if (q === -1) {
          i = n;
          break;
        }
        if (q + 1 === n) {
          state = AFTER_QUOTE; // the next chunk says whether this quote is doubled
          i = n;
          break;
        }
        if (buf[q + 1] === QUOTE) i = q + 2;
        else {
          state = OUT;
          i = q + 1;
        }
      } else {
        // AFTER_QUOTE at a chunk's first new byte: a second quote makes a literal quote.
        if (buf[i] === QUOTE) {
          state = IN;
          i++;
        } else state = OUT;
      }
    }
    this.state = state;
    if (start >= n) {
      this.carry = undefined;
      this.resumeAt = 0;
    } else if (this.skipping || n - start > this.maxRecordBytes) {
      // Too long: keep scanning for its end, but forget its bytes.
      this.skipping = true;
      this.carry = undefined;
      this.resumeAt = 0;
    } else {
      this.carry = Buffer.from(buf.subarray(start)); // a copy: the caller may reuse its chunk
      this.resumeAt = i - start;
    }
  }

  /** The input ended: the last record, if it had no line end. */
  end(emit: RecordHandler): void {
    const unclosed = this.state === IN;
    if (this.skipping) emit(EMPTY, 0, 0, true, unclosed);
    else if (this.carry) this.finish(this.carry, 0, this.carry.length, unclosed, emit);
    this.carry = undefined;
    this.skipping = false;
    this.state = OUT;
  }

  private finish(buf: Buffer, start: number, end: number, unclosed: boolean, emit: RecordHandler): void {
    if (this.skipping) {
      this.skipping = false;
      emit(EMPTY, 0, 0, true, unclosed);
      return;
    }
    if (end > start && buf[end - 1] === CR) end--;
    if (end === start) return; // a blank line is not a record
    if (end - start > this.maxRecordBytes) emit(EMPTY, 0, 0, true, unclosed);
    else emit(buf, start, end, false, unclosed);
  }
}

const EMPTY = Buffer.alloc(0);
