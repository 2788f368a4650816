/**
 * Job checkpoints: how far a file job got, written atomically (temp file, fsync, rename), so that
 * `--resume` after a crash, kill -9, a signal or exhausted credits continues exactly there.
 */
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readSync, renameSync, statSync, writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import type { Op } from '../../contract/params.ts';
import type { ReportState } from './report/aggregate.ts';
import { OutputError } from './sink.ts';

export const CHECKPOINT_VERSION = 1;

export interface Checkpoint {
  version: number;
  op: Op;
  /** Identity of the input file; a resume against another file is refused. */
  inputId: string;
  /** Records fully written to the output (and charged, when metered). */
  recordsDone: number;
  /** Bytes of the output and errors files that hold exactly those records. */
  outputBytes: number;
  errorsBytes: number;
  /** Running totals, so that the final summary covers the whole job across resumes. */
  totals: CheckpointTotals;
  /** Why the job stopped at this checkpoint, if it did. */
  stoppedBecause?: string;
  /** The job report's aggregates (--report), so a resumed job's report covers the whole job. */
  report?: ReportState;
}

export interface CheckpointTotals {
  records: number;
  processed: number;
  rejected: number;
  credits: number;
  byCode: Record<string, number>;
  byMatchlevel: Record<string, number>;
  elapsedMs: number;
}

export function emptyTotals(): CheckpointTotals {
  return { records: 0, processed: 0, rejected: 0, credits: 0, byCode: {}, byMatchlevel: {}, elapsedMs: 0 };
}

const SAMPLE = 1 << 20;

/**
 * A file's identity: its size plus SHA-256 of its first and last MiB. Stable across renames and
 * copies, cheap for multi-GB inputs, and different for any edit that changes size or either end.
 * It also names the ledger entries of a metered job (`file:<id>/<position>`).
 */
export function fileIdentity(path: string): string {
  const size = statSync(path).size;
  const h = createHash('sha256');
  h.update(String(size));
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(SAMPLE);
    h.update(buf.subarray(0, readSync(fd, buf, 0, SAMPLE, 0)));
    if (size > SAMPLE) h.update(buf.subarray(0, readSync(fd, buf, 0, SAMPLE, Math.max(SAMPLE, size - SAMPLE))));
  } finally {
    closeSync(fd);
  }
  return h.digest('hex').slice(0, 32);
}

/**
 * Writes `cp` atomically. When that fails (a full device), the previous checkpoint stays as it
 * was and the failure is an OutputError, so the job stops there, resumable.
 */
export function writeCheckpoint(path: string, cp: Checkpoint): void {
  const tmp = `${path}.tmp`;
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeFileSync(fd, JSON.stringify(cp, null, 1) + '\n'); // loops over short writes
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new OutputError(`checkpoint ${path}`, err as NodeJS.ErrnoException);
  }
}

export function readCheckpoint(path: string): Checkpoint | undefined {
  if (!existsSync(path)) return undefined;
  const cp = JSON.parse(readFileSync(path, 'utf8')) as Checkpoint;
  if (cp.version !== CHECKPOINT_VERSION) {
    throw new Error(`checkpoint ${path} has version ${cp.version}; this addrflow writes version ${CHECKPOINT_VERSION}`);
  }
  return cp;
}

export function removeCheckpoint(path: string): void {
  rmSync(path, { force: true });
  rmSync(`${path}.tmp`, { force: true });
}
