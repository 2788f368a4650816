/**
 * What a job report needs to know of each record of a raw batch, gathered in the worker that
 * already holds the parsed request and its result, so the main thread never parses a record:
 * relevance, country, the answered point, and the batch's lowest-ranked rows with their input.
 *
 * Rank orders processed records by how much they need a person's attention: by relevance
 * (search) or by recipient-block status (lines: 100 for a formatted block, 0 for a status code
 * that says it could not be formatted); ties go to the earlier record. Rejected records (-1) are
 * kept apart: the first few, as examples of what was refused.
 */
import type { RawReportFacts } from './batch-task.ts';

/** Relevance byte for "no relevance" (rejected record, or the lines operation). */
export const NO_RELEVANCE = 255;
/** Longest input or output text kept for a row of the report. */
export const ROW_TEXT_MAX = 2000;

export class ReportFactsBuilder {
  readonly relevance: Uint8Array;
  readonly country: Uint16Array;
  readonly lat: Float32Array;
  readonly lon: Float32Array;
  private readonly rank: Int8Array;
  /** Output line of each record (a reference to a string the worker made anyway). */
  private readonly outputs: Array<string | undefined>;
  /** Decodes record i's input; called only for the few rows the report keeps. */
  private readonly inputOf: (i: number) => string;
  private readonly rows: number;
  private readonly rankAtMost: number;
  private readonly rejectedWanted: number;

  constructor(n: number, opts: { rows: number; rankAtMost: number; rejected: number }, inputOf: (i: number) => string) {
    this.relevance = new Uint8Array(n).fill(NO_RELEVANCE);
    this.country = new Uint16Array(n);
    this.lat = new Float32Array(n).fill(NaN);
    this.lon = new Float32Array(n).fill(NaN);
    this.rank = new Int8Array(n).fill(-1);
    this.rows = opts.rows;
    this.rankAtMost = opts.rankAtMost;
    this.rejectedWanted = opts.rejected;
    this.outputs = opts.rows > 0 ? new Array<string | undefined>(n) : [];
    this.inputOf = inputOf;
  }

  /** Record i's output line (only kept when rows are asked for). */
  keepOutput(i: number, output: string): void {
    if (this.rows !== 0) this.outputs[i] = output;
  }

  private row(i: number): [number, number, string, string] {
    return [i, this.rank[i]!, clip(this.inputOf(i)), clip(this.outputs[i] ?? '')];
  }

  /** Record i was processed: what the request asked and what the engine answered. */
  processed(i: number, request: unknown, record: unknown): void {
    const req = (request ?? {}) as Record<string, unknown>;
    const rec = record as Record<string, unknown>;
    let country = rec.country_iso_2;
    if (typeof rec.relevance === 'string') {
      const r = Number(rec.relevance);
      const rel = Number.isFinite(r) ? Math.max(0, Math.min(100, Math.round(r))) : 0;
      this.relevance[i] = rel;
      this.rank[i] = rel;
      const lat = Number(rec.latitude);
      const lon = Number(rec.longitude);
      if (rec.latitude !== '' && rec.longitude !== '' && Number.isFinite(lat) && Number.isFinite(lon)) {
        this.lat[i] = lat;
        this.lon[i] = lon;
      }
    } else {
      const status = rec.addresslinestatuscode;
      this.rank[i] = status === 0 || status === 1 ? 100 : 0;
    }
    if (typeof country !== 'string' || country.length !== 2) country = req.countrycode;
    this.country[i] = packCountry(country);
  }

  /** Record i was rejected; the country it asked for is still counted when there is one. */
  rejected(i: number, request: unknown): void {
    this.rank[i] = -1;
    const req = request as Record<string, unknown> | undefined;
    if (req && typeof req === 'object') this.country[i] = packCountry(req.countrycode);
  }

  take(): RawReportFacts {
    const facts: RawReportFacts = { relevance: this.relevance, country: this.country, lat: this.lat, lon: this.lon, rows: [] };
    if (this.rows === 0) return facts;
    // The first rejected records, as examples of what was refused.
    let wanted = this.rejectedWanted;
    for (let i = 0; i < this.rank.length && wanted > 0; i++) {
      if (this.rank[i] === -1) {
        facts.rows.push(this.row(i));
        wanted--;
      }
    }
    const candidates: number[] = [];
    // A perfect record (relevance 100, a formatted block) needs no one's attention.
    const atMost = Math.min(this.rankAtMost, 99);
    for (let i = 0; i < this.rank.length; i++) if (this.rank[i]! >= 0 && this.rank[i]! <= atMost) candidates.push(i);
    candidates.sort((a, b) => this.rank[a]! - this.rank[b]! || a - b);
    for (const i of candidates.slice(0, this.rows)) facts.rows.push(this.row(i));
    return facts;
  }
}

/** Two ASCII letters as one number (0 = none); anything else is not a country code. */
export function packCountry(v: unknown): number {
  if (typeof v !== 'string' || v.length !== 2) return 0;
  const a = v.charCodeAt(0) & ~32;
  const b = v.charCodeAt(1) & ~32;
  if (a < 65 || a > 90 || b < 65 || b > 90) return 0;
  return (a << 8) | b;
}

export function unpackCountry(n: number): string {
  return n === 0 ? '' : String.fromCharCode(n >> 8, n & 0xff);
}

function clip(s: string): string {
  return s.length > ROW_TEXT_MAX ? s.slice(0, ROW_TEXT_MAX) + '…' : s;
}
