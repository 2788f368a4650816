/**
 * RFC 4180 record boundaries over raw bytes, streamed chunk by chunk, that stay row-exact when a
 * quote is never closed.
 *
 * A record ends at a line feed (LF or CR LF) that is not inside a quoted field. A quote opens a
 * quoted field only at the start of a field (the record's first byte or right after the
 * delimiter); inside, a doubled quote is a literal quote. A quote in the middle of an unquoted
 * field is an ordinary character (as Excel and most exporters read it). The field parser
 * (fields.ts) follows exactly the same rules, so both agree on where a record ends.
 *
 * The resynchronisation rule. One stray quote must cost one row, not the rest of the file. A
 * quoted field that spans a line break is believed only while the record stays plausible:
 *   - it closes within `maxQuotedLines` physical lines (default 100) and the record stays within
 *     `maxRecordBytes` bytes (default 1 MiB);
 *   - its closing quote is followed by a delimiter, a line end or the end of the input (not by
 *     text: such a quote is the opening quote of a later row's field, `,"Foo…`);
 *   - it closes before the end of the input.
 * When one of these fails, the record's FIRST physical line alone is reported as an
 * `unclosed-quote` record (with its line numbers) and scanning starts again, outside quotes, at
 * the next line, so every later row comes back unchanged. A quote that opens on a record's last
 * line and never closes (the input ends) is that one record. To re-scan, the open record's bytes
 * are kept until it closes or hits a limit, so memory stays bounded by `maxRecordBytes` plus one
 * chunk. A single physical line longer than `maxRecordBytes` is a `too-long` record whose bytes
 * are dropped; scanning resumes after its line feed.
 * Every record a CSV writer can produce still reads as one record, whatever its fields hold (up
 * to the limits). The limit of the rule: after an unclosed quote, a later row whose first quoted
 * field's value starts with the delimiter, a line break or a quote (`",x"`, `"\nx"`, ``) can
 * look like the closing of the open field, and that row is then read into the bad one (the
 * limits still end it). Other rules were weighed: a closing quote right after a delimiter or a
 * line feed could also be refused, and an open quote could end at the first line that parses as
 * a whole row of the header's width; both would split legitimate fields (a value ending in a
 * line break, a multi-line notes field whose lines hold delimiters), so neither is used.
 *
 * Lines are counted from 1 at the first byte of the input (the header row is line 1); blank
 * lines count as lines but are not records. The delimiter, the quote and the line feed are
 * ASCII, so UTF-8, Latin-1 and Windows-1252 bytes are scanned without decoding (UTF-16 is
 * transcoded to UTF-8 before, src/csv/utf16.ts). Lines and quotes are found with native byte
 * searches.
 */

export const LF = 10;
export const CR = 13;
export const QUOTE = 34;

/** Defaults of the limits a record (and a quoted field spanning lines) must stay within. */
export const DEFAULT_MAX_RECORD_BYTES = 1 << 20;
export const DEFAULT_MAX_QUOTED_LINES = 100;

export interface SplitterLimits {
  /** The most bytes a record may hold (default 1 MiB). */
  maxRecordBytes?: number;
  /** The most physical lines a record with a quoted line break may span (default 100). */
  maxQuotedLines?: number;
}

/** Why a quoted field was taken as never closed. */
export type UnclosedWhy = 'end' | 'lines' | 'bytes' | 'bad-close';

/** A record that is not one: its bytes are not to be read as fields. */
export interface RecordProblem {
  kind: 'too-long' | 'unclosed-quote';
  /** For `unclosed-quote`: which test the quoted field failed. */
  why?: UnclosedWhy;
  /** The physical line the record starts on (1-based, header included). */
  firstLine: number;
  /** The last physical line looked at for it (the limit, the bad closing quote or the end). */
  lastLine: number;
}

/**
 * Called for each record: its bytes are buf[start, end) (line end excluded), `line` is the
 * physical line it starts on. `problem` is set for a record that is unreadable as CSV: a
 * too-long one has no bytes; an unclosed-quote one has the bytes of its first line only.
 */
export type RecordHandler = (buf: Buffer, start: number, end: number, line: number, problem?: RecordProblem) => void;

const OUT = 0, IN = 1, AFTER_QUOTE = 2;

export class RecordSplitter {
  readonly maxRecordBytes: number;
  readonly maxQuotedLines: number;
  private readonly delimiter: number;
  private carry: Buffer | undefined;
  /** Where scanning resumes in the carried bytes (bytes before it are already scanned). */
  private resumeAt = 0;
  private state = OUT;
  /** The current record is a line past the byte limit: its bytes are dropped up to its line feed. */
  private skipping = false;
  /** The physical line the current record starts on. */
  private line = 1;
  /** Line feeds inside the current record so far (inside quoted fields). */
  private linesIn = 0;
  /** Offset, from the record's start, of its first line feed (-1: none yet). */
  private firstLf = -1;

  constructor(delimiter: string, limits: SplitterLimits | number = {}) {
    if (delimiter.length !== 1 || delimiter.charCodeAt(0) > 127) throw new Error(`a CSV delimiter is one ASCII character; got '${delimiter}'`);
    this.delimiter = delimiter.charCodeAt(0);
    const l = typeof limits === 'number' ? { maxRecordBytes: limits } : limits;
    this.maxRecordBytes = l.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
    this.maxQuotedLines = Math.max(2, l.maxQuotedLines ?? DEFAULT_MAX_QUOTED_LINES);
  }

  /** Scans a chunk; complete records go to `emit`. The chunk may be reused by the caller after. */
  push(chunk: Uint8Array, emit: RecordHandler): void {
    let c = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.skipping) {
      const nl = c.indexOf(LF);
      if (nl === -1) return;
      this.skipping = false;
      emit(EMPTY, 0, 0, this.line, { kind: 'too-long', firstLine: this.line, lastLine: this.line });
      this.nextRecord(1);
      c = c.subarray(nl + 1);
    }
    const buf = this.carry ? Buffer.concat([this.carry, c]) : c;
    this.scan(buf, this.carry ? this.resumeAt : 0, emit, false);
  }

  /** The input ended: the last record, if it had no line end. */
  end(emit: RecordHandler): void {
    if (this.skipping) emit(EMPTY, 0, 0, this.line, { kind: 'too-long', firstLine: this.line, lastLine: this.line });
    else if (this.carry) this.scan(this.carry, this.resumeAt, emit, true);
    this.carry = undefined;
    this.skipping = false;
    this.state = OUT;
    this.nextRecord(0);
  }

  /** The current record ended after `lines` more line feeds than it holds inside quotes. */
  private nextRecord(lines: number): void {
    this.line += this.linesIn + lines;
    this.linesIn = 0;
    this.firstLf = -1;
  }

  private scan(buf: Buffer, from: number, emit: RecordHandler, atEnd: boolean): void {
    const n = buf.length;
    const d = this.delimiter;
    const maxLines = this.maxQuotedLines;
    let start = 0;
    let i = from;
    let state = this.state;
    let nextQuote = -2; // cached position of the next quote at or after i (-1: none; -2: unknown)
    let nextNl = -2; // the same for the next line feed
    let unclosed: UnclosedWhy | undefined;
    for (;;) {
      while (i < n) {
        if (state === OUT) {
          if (nextNl !== -1 && nextNl < i) nextNl = buf.indexOf(LF, i);
          if (nextQuote !== -1 && nextQuote < i) nextQuote = buf.indexOf(QUOTE, i);
          const nl = nextNl;
          const q = nextQuote;
          if (q === -1 || (nl !== -1 && nl < q)) {
            if (nl === -1) {
              i = n;
              break;
            }
            if (this.firstLf >= 0 && nl - start > this.maxRecordBytes) {
              unclosed = 'bytes';
              break;
            }
            this.finish(buf, start, nl, emit);
            this.nextRecord(1);
            start = i = nl + 1;
            continue;
          }
          // A quote before the line end: it opens a quoted field only at a field's start.
          if (q === start || buf[q - 1] === d) state = IN;
          i = q + 1;
        } else if (state === IN) {
          const q = buf.indexOf(QUOTE, i);
          // Line feeds inside the quoted field: counted, the first one remembered for a re-scan.
          const stop = q === -1 ? n : q;
          if (nextNl !== -1 && nextNl < i) nextNl = buf.indexOf(LF, i);
          while (nextNl !== -1 && nextNl < stop) {
            if (this.firstLf < 0) this.firstLf = nextNl - start;
            if (++this.linesIn >= maxLines) break;
            nextNl = buf.indexOf(LF, nextNl + 1);
          }
          if (this.linesIn >= maxLines) {
            unclosed = 'lines';
            break;
          }
          if (q === -1) {
            i = n;
            break;
          }
          if (q + 1 === n) {
            state = AFTER_QUOTE; // the next chunk says whether this quote is doubled
            i = n;
            break;
          }
          const next = buf[q + 1]!;
          if (next === QUOTE) {
            i = q + 2;
            continue;
          }
          if (this.linesIn > 0 && next !== d && next !== LF && next !== CR) {
            unclosed = 'bad-close';
            break;
          }
          state = OUT;
          i = q + 1;
        } else {
          // AFTER_QUOTE at a chunk's first new byte: a second quote makes a literal quote.
          const next = buf[i]!;
          if (next === QUOTE) {
            state = IN;
            i++;
            continue;
          }
          if (this.linesIn > 0 && next !== d && next !== LF && next !== CR) {
            unclosed = 'bad-close';
            break;
          }
          state = OUT;
        }
      }
      // Scanned to the end of what there is (or a quoted field failed a test on the way).
      if (unclosed === undefined && this.firstLf >= 0) {
        if (atEnd && state === IN) unclosed = 'end';
        else if (!atEnd && n - start > this.maxRecordBytes) unclosed = 'bytes';
      }
      if (unclosed === undefined) break;
      // The rule: the open record's first line is one unreadable record; re-scan from the next.
      const firstEnd = start + this.firstLf;
      // (At the end, a last line feed ends the last line: it does not start another.)
      const lastLine = this.line + this.linesIn - (unclosed === 'end' && buf[n - 1] === LF ? 1 : 0);
      let e = firstEnd;
      if (e > start && buf[e - 1] === CR) e--;
      emit(buf, start, e, this.line, { kind: 'unclosed-quote', why: unclosed, firstLine: this.line, lastLine });
      this.line++;
      this.linesIn = 0;
      this.firstLf = -1;
      start = i = firstEnd + 1;
      state = OUT;
      nextQuote = nextNl = -2;
      unclosed = undefined;
    }
    this.state = state;
    if (atEnd) {
      if (start < n) {
        let e = n;
        if (buf[e - 1] === CR) e--;
        if (state === IN) {
          // A quote opened on the input's last line: that line is the record, unreadable.
          if (e > start) emit(buf, start, e, this.line, { kind: 'unclosed-quote', why: 'end', firstLine: this.line, lastLine: this.line });
        } else this.finish(buf, start, n, emit);
      }
      this.carry = undefined;
      return;
    }
    if (start >= n) {
      this.carry = undefined;
      this.resumeAt = 0;
    } else if (n - start > this.maxRecordBytes) {
      // One line past the limit (no line feed in it yet): its bytes are dropped up to its end.
      this.skipping = true;
      this.state = OUT;
      this.carry = undefined;
      this.resumeAt = 0;
    } else {
      this.carry = Buffer.from(buf.subarray(start)); // a copy: the caller may reuse its chunk
      this.resumeAt = i - start;
    }
  }

  private finish(buf: Buffer, start: number, end: number, emit: RecordHandler): void {
    if (end > start && buf[end - 1] === CR) end--;
    if (end === start) return; // a blank line is not a record
    if (end - start > this.maxRecordBytes) emit(EMPTY, 0, 0, this.line, { kind: 'too-long', firstLine: this.line, lastLine: this.line + this.linesIn });
    else emit(buf, start, end, this.line);
  }
}

/** The problem, said for a user: "a quoted field opened on line 11 is …". Callers prefix "Record N". */
export function describeRecordProblem(p: RecordProblem, limits: { maxRecordBytes: number; maxQuotedLines: number }): string {
  if (p.kind === 'too-long') return `longer than ${limits.maxRecordBytes} bytes; not read`;
  const at = `a quoted field opened on line ${p.firstLine}`;
  const then = p.why === 'end' && p.firstLine === p.lastLine ? '' : `; line ${p.firstLine} is read as one unreadable row and reading resumes on line ${p.firstLine + 1}`;
  switch (p.why) {
    case 'lines': return `${at} is still open after ${limits.maxQuotedLines} lines (the most a quoted field may span)${then}`;
    case 'bytes': return `${at} is still open after ${limits.maxRecordBytes} bytes (the most a record may hold)${then}`;
    case 'bad-close': return `${at} is not closed before line ${p.lastLine}, where a quote followed by text opens another row's field${then}`;
    default: return `${at} is not closed before the end of the input${then}`;
  }
}

const EMPTY = Buffer.alloc(0);
