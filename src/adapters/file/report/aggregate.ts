/**
 * The job report's aggregates, fed once per ordered output batch (record by record) with the
 * facts the workers gathered (src/adapters/file/worker/report-facts.ts).
 *
 * Its state is plain JSON of a fixed maximum size whatever the job's size (counts keyed by code,
 * matchlevel and country; a relevance histogram; grids of answered points of 1°, 0.25° and 0.05°,
 * the finer ones dropped once they pass a cap; the N lowest-ranked rows), so it rides in the
 * job's checkpoint and a resumed job's
 * report covers the whole job. Folding is deterministic: the same records give the same state
 * however they were batched or interrupted.
 */
import type { Op } from '../../../contract/params.ts';
import { MATCHLEVELS, OK, type RawResult } from '../worker/batch-task.ts';
import { NO_RELEVANCE, unpackCountry } from '../worker/report-facts.ts';

export const REPORT_STATE_VERSION = 1;
/** Relevance histogram: ten bins 0–9, 10–19, …, 90–100. */
export const RELEVANCE_BINS = 10;
/**
 * Grids of answered points, coarse to fine. The 1° grid always stays (at most 360 × 180 cells);
 * a finer one is dropped for good once it holds more than `maxCells` cells, which depends only
 * on the set of points, not on how the job was batched or resumed. The map draws the finest grid
 * that is left and fits its view.
 */
export const GRID_LEVELS: ReadonlyArray<{ degrees: number; maxCells: number }> = [
  { degrees: 1, maxCells: Infinity },
  { degrees: 0.25, maxCells: 16_384 },
  { degrees: 0.05, maxCells: 16_384 },
];
/** Most rows a report may keep (--report-rows). */
export const MAX_REPORT_ROWS = 1000;
/** Rejected rows kept as examples (at most --report-rows). */
export const REJECTED_ROWS = 10;

export interface ReportRow {
  /** Line, element or row number in the input. */
  position: number;
  /** -1 rejected; search: relevance 0..100; lines: 0 not formatted, 100 formatted. */
  rank: number;
  input: string;
  output: string;
}

export interface ReportState {
  version: number;
  op: Op;
  /** When the job first started (ISO 8601). */
  startedAt: string;
  /** Rows to keep (0 = no input data in the report). */
  rowsKept: number;
  /** Records of the job before the report started (a job resumed with --report it lacked). */
  notCovered: number;
  records: number;
  processed: number;
  rejected: number;
  byCode: Record<string, number>;
  byMatchlevel: Record<string, number>;
  /** Processed records with a relevance, per bin. */
  relevance: number[];
  /** Records per ISO country code ('' = none given or found). */
  byCountry: Record<string, number>;
  /**
   * Answered points per cell, one grid per GRID_LEVELS entry (null: dropped, too many cells),
   * keyed `col,row` (col 0 at 180° W, row 0 at 90° N).
   */
  grids: Array<Record<string, number> | null>;
  answered: number;
  /** The lowest-ranked processed rows, rows[0] needing attention most. */
  rows: ReportRow[];
  /** The first rejected rows, in input order (examples of what was refused). */
  rejectedRows: ReportRow[];
}

export function emptyReportState(op: Op, rowsKept: number, startedAt: Date): ReportState {
  return {
    version: REPORT_STATE_VERSION, op, startedAt: startedAt.toISOString(), rowsKept, notCovered: 0,
    records: 0, processed: 0, rejected: 0, byCode: {}, byMatchlevel: {},
    relevance: new Array<number>(RELEVANCE_BINS).fill(0), byCountry: {}, grids: GRID_LEVELS.map(() => ({})), answered: 0, rows: [], rejectedRows: [],
  };
}

/** Accepts a state from a checkpoint, or says why not. */
export function checkReportState(v: unknown): ReportState {
  const s = v as ReportState;
  if (!s || typeof s !== 'object' || s.version !== REPORT_STATE_VERSION || !Array.isArray(s.rows) || !Array.isArray(s.rejectedRows) || !Array.isArray(s.relevance) || !Array.isArray(s.grids)) {
    throw new Error(`the checkpoint's report state is not version ${REPORT_STATE_VERSION}`);
  }
  return s;
}

function bump(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1;
}

export class ReportAggregator {
  private readonly s: ReportState;
  /** Cells in each grid (not part of the state: counted again from it). */
  private readonly cells: number[];

  constructor(state: ReportState) {
    this.s = state;
    this.cells = state.grids.map((g) => (g ? Object.keys(g).length : 0));
  }

  /** What the workers are asked for: how many rows, and the worst rank that could still enter. */
  get request(): { rows: number; rankAtMost: number; rejected: number } {
    const { rows, rowsKept, rejectedRows } = this.s;
    if (rowsKept === 0) return { rows: 0, rankAtMost: -1, rejected: 0 };
    return {
      rows: rowsKept,
      rankAtMost: rows.length < rowsKept ? 99 : rows[rows.length - 1]!.rank,
      rejected: Math.max(0, Math.min(rowsKept, REJECTED_ROWS) - rejectedRows.length),
    };
  }

  /** One ordered output batch: `positions[i]` is record i's place in the input. */
  addBatch(positions: readonly number[], result: RawResult): void {
    const facts = result.report;
    if (!facts) throw new Error('a report job got a result without report facts');
    const s = this.s;
    const n = result.flags.length;
    // Counted by number within the batch, then merged: no string made per record.
    const codes = new Map<number, number>();
    const countries = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      s.records++;
      codes.set(result.codes[i]!, (codes.get(result.codes[i]!) ?? 0) + 1);
      countries.set(facts.country[i]!, (countries.get(facts.country[i]!) ?? 0) + 1);
      if (!(result.flags[i]! & OK)) {
        s.rejected++;
        continue;
      }
      s.processed++;
      const ml = MATCHLEVELS[result.matchlevels[i]!];
      if (ml) bump(s.byMatchlevel, ml);
      const rel = facts.relevance[i]!;
      if (rel !== NO_RELEVANCE) s.relevance[Math.min(RELEVANCE_BINS - 1, Math.floor(rel / 10))]!++;
      const lat = facts.lat[i]!;
      const lon = facts.lon[i]!;
      if (!Number.isNaN(lat) && !Number.isNaN(lon)) {
        s.answered++;
        for (let l = 0; l < GRID_LEVELS.length; l++) {
          const g = s.grids[l];
          if (!g) continue;
          const k = gridKey(lat, lon, GRID_LEVELS[l]!.degrees);
          if (g[k] === undefined) {
            g[k] = 1;
            if (++this.cells[l]! > GRID_LEVELS[l]!.maxCells) s.grids[l] = null;
          } else g[k]++;
        }
      }
    }
    for (const [code, c] of codes) s.byCode[code] = (s.byCode[code] ?? 0) + c;
    for (const [country, c] of countries) {
      const k = unpackCountry(country);
      s.byCountry[k] = (s.byCountry[k] ?? 0) + c;
    }
    const rejectedMax = Math.min(s.rowsKept, REJECTED_ROWS);
    for (const [i, rank, input, output] of facts.rows) {
      const row = { position: positions[i]!, rank, input, output };
      if (rank >= 0) this.offerRow(row);
      else if (s.rejectedRows.length < rejectedMax) s.rejectedRows.push(row); // batches come in order
    }
  }

  private offerRow(row: ReportRow): void {
    const rows = this.s.rows;
    const before = (a: ReportRow, b: ReportRow) => a.rank < b.rank || (a.rank === b.rank && a.position < b.position);
    if (rows.length >= this.s.rowsKept && !before(row, rows[rows.length - 1]!)) return;
    let at = rows.length;
    while (at > 0 && before(row, rows[at - 1]!)) at--;
    rows.splice(at, 0, row);
    if (rows.length > this.s.rowsKept) rows.pop();
  }

  /** The state as plain JSON (a copy), for the checkpoint and the renderer. */
  state(): ReportState {
    return structuredClone(this.s);
  }
}

export function gridKey(lat: number, lon: number, degrees: number): string {
  const cols = Math.round(360 / degrees);
  const rows = Math.round(180 / degrees);
  const col = Math.min(cols - 1, Math.max(0, Math.floor((lon + 180) / degrees)));
  const row = Math.min(rows - 1, Math.max(0, Math.floor((90 - lat) / degrees)));
  return `${col},${row}`;
}
