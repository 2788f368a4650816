/**
 * The streaming contract between the index-source readers (one per file format, src/data/readers)
 * and the index builder. A reader never returns its rows: it pushes each one into a SourceSink as
 * soon as it has it, and forgets it. The sink (the builder) copies what it keeps into typed arrays
 * and interned strings, so no per-row JS object survives the call: a reader may reuse one object
 * for every call.
 *
 * Every row a reader cannot use is reported with `reject(reason)`, so that the build can print,
 * per source, how many rows were dropped and why. Reasons are short stable words
 * (`no-coordinates`, `bad-coordinates`, `no-housenumber`, `no-street`, `short-row`,
 * `bad-quoting`, `bad-utf8`, …), not sentences.
 */
import type { AddressPoint, AdminArea, Place, PostcodeEntry, StreetLine } from './source-types.ts';

export interface SourceSink {
  /** One address point. The object may be reused by the caller after the call returns. */
  address(a: AddressPoint): void;
  /** One named street line with its geometry. */
  line(l: StreetLine): void;
  /** One populated place (city, town, village, suburb, …). */
  place(p: Place): void;
  /** One postcode area (code, place name, admin names, centroid). */
  postcode(p: PostcodeEntry): void;
  /** One administrative area with its polygon rings. */
  admin(a: AdminArea): void;
  /**
   * A row that could not be used, counted per reason. `line`: the physical line it starts on,
   * when the reader knows it and the reason is about the file's text (the summary names a few).
   */
  reject(reason: string, line?: number): void;
}

/** Progress of one reader: bytes consumed of the file (compressed bytes for .gz) and its size. */
export type ReaderProgress = (bytesDone: number, bytesTotal: number) => void;

/** A reader: streams one file into the sink. */
export type SourceReader = (path: string, sink: SourceSink, progress?: ReaderProgress) => Promise<void>;

/** What one source yielded: counts per kind and rejected rows per reason. */
export interface SourceCounts {
  addresses: number;
  lines: number;
  places: number;
  postcodes: number;
  admins: number;
  rejected: Record<string, number>;
  /** The first few physical lines of rejected rows, per reason, when the reader gave them. */
  rejectedLines?: Record<string, number[]>;
}

/** How many lines per reason the summary keeps and names. */
export const REJECTED_LINES_KEPT = 5;

/** Counts one rejected row (and keeps its line among the first few of its reason). */
export function countReject(counts: SourceCounts, reason: string, line?: number): void {
  counts.rejected[reason] = (counts.rejected[reason] ?? 0) + 1;
  if (line === undefined) return;
  const lines = ((counts.rejectedLines ??= {})[reason] ??= []);
  if (lines.length < REJECTED_LINES_KEPT) lines.push(line);
}

export function emptyCounts(): SourceCounts {
  return { addresses: 0, lines: 0, places: 0, postcodes: 0, admins: 0, rejected: {} };
}

/** Wraps a sink so that it also counts what passes through (for the per-source summary). */
export function countingSink(inner: SourceSink, counts: SourceCounts = emptyCounts()): { sink: SourceSink; counts: SourceCounts } {
  const sink: SourceSink = {
    address(a) { counts.addresses++; inner.address(a); },
    line(l) { counts.lines++; inner.line(l); },
    place(p) { counts.places++; inner.place(p); },
    postcode(p) { counts.postcodes++; inner.postcode(p); },
    admin(a) { counts.admins++; inner.admin(a); },
    reject(reason, line) { countReject(counts, reason, line); inner.reject(reason, line); },
  };
  return { sink, counts };
}
