/**
 * `addrflow run --summary-json FILE`: the job's summary as one JSON object, for cron and
 * schedulers, written on every stop (done, exits 3, 7, 8, 9, 10 and signals). It is written to a
 * temp file, synced and renamed, so a reader sees the previous file or the whole new one, never
 * half of one. The keys are documented in docs/job-summary.md.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import {
  EXIT_CREDITS, EXIT_INPUT, EXIT_OUTPUT, EXIT_TOO_MANY_REJECTED, EXIT_UNREADABLE_ROWS,
} from '../../contract/exit-codes.ts';
import type { Op } from '../../contract/params.ts';
import type { JobSummary } from './job.ts';
import { OutputError } from './sink.ts';

export const SUMMARY_JSON_VERSION = 1;

/** What each exit code of `addrflow run` means, in the summary's words. */
export function exitMeaning(code: number): string {
  switch (code) {
    case 0: return 'done';
    case EXIT_CREDITS: return 'stopped: the account balance ran out (top up, then --resume)';
    case EXIT_OUTPUT: return 'stopped: the output could not be written (free space or fix the output, then --resume)';
    case EXIT_INPUT: return 'stopped: the input could not be read';
    case EXIT_UNREADABLE_ROWS: return 'finished every readable row, but some rows could not be read (--max-rejected N accepts them)';
    case EXIT_TOO_MANY_REJECTED: return 'stopped: more unreadable rows than --max-rejected (raise it, then --resume)';
    case 130: return 'stopped by SIGINT (--resume continues)';
    case 143: return 'stopped by SIGTERM (--resume continues)';
    default: return 'failed';
  }
}

/** How the job ended, as a word: the job's own end, or the failure that stopped it. */
export type SummaryEnd = JobSummary['end'] | 'output-failed' | 'input-failed' | 'refused';

export interface SummaryJsonFacts {
  op: Op;
  jobId: string;
  resumed: boolean;
  exitCode: number;
  end: SummaryEnd;
  /** The stop's one line on stderr (the coded line of exits 9 and 10, the failure of 7 and 8). */
  message: string | undefined;
  /** What was done; undefined when the job failed before its first record was read. */
  summary: JobSummary | undefined;
  metered: boolean;
  maxRejected: number | undefined;
  /** What a position counts: line, element or record. */
  unit: string;
  paths: { input: string; output: string; errors?: string | undefined; report?: string | undefined; checkpoint?: string | undefined };
  finishedAt: Date;
}

/** The summary object (plain JSON). */
export function summaryJson(f: SummaryJsonFacts): Record<string, unknown> {
  const s = f.summary;
  const byCode = s?.byCode ?? {};
  const rejectedByCode = Object.fromEntries(Object.entries(byCode).filter(([code]) => Number(code) >= 400));
  return {
    version: SUMMARY_JSON_VERSION,
    op: f.op,
    jobId: f.jobId,
    resumed: f.resumed,
    exitCode: f.exitCode,
    exitMeaning: exitMeaning(f.exitCode),
    end: f.end,
    message: f.message ?? null,
    records: s?.records ?? 0,
    recordsDone: s?.recordsDone ?? 0,
    processed: s?.processed ?? 0,
    rejected: s?.rejected ?? 0,
    rejectedByCode,
    byCode,
    byMatchlevel: s?.byMatchlevel ?? {},
    unreadable: {
      count: s?.unreadable ?? 0,
      limit: f.maxRejected ?? null,
      unit: f.unit,
      first: s?.unreadableRows ?? [],
      stoppedBefore: s?.stoppedBefore ?? null,
    },
    credits: f.metered ? (s?.credits ?? 0) : null,
    elapsedMs: s?.elapsedMs ?? 0,
    finishedAt: f.finishedAt.toISOString(),
    paths: {
      input: f.paths.input,
      output: f.paths.output,
      errors: f.paths.errors ?? null,
      report: f.paths.report ?? null,
      checkpoint: f.paths.checkpoint ?? null,
    },
  };
}

/**
 * Writes `value` as JSON to `path` atomically (temp file, fsync, rename). `probeOnly` checks at
 * the start of a job that it can be written, leaving nothing behind.
 */
export function writeJsonAtomic(path: string, value: unknown, probeOnly = false): void {
  const tmp = `${path}.tmp`;
  try {
    const fd = openSync(tmp, 'w');
    try {
      if (!probeOnly) {
        writeFileSync(fd, JSON.stringify(value, null, 2) + '\n');
        fsyncSync(fd);
      }
    } finally {
      closeSync(fd);
    }
    if (probeOnly) rmSync(tmp);
    else renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new OutputError(`summary ${path}`, err as NodeJS.ErrnoException);
  }
}
