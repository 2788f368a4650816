/**
 * Job checkpoints: how far a file job got, written atomically (temp file, fsync, rename), so that
 * `--resume` after a crash, kill -9, a signal or exhausted credits continues exactly there.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readSync, renameSync, statSync, writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Op } from '../../contract/params.ts';
import type { ReportState } from './report/aggregate.ts';
import { OutputError } from './sink.ts';
import type { UnreadableRow } from './unreadable.ts';

/**
 * Bumped whenever the numbering of records (what `recordsDone` counts) or the meaning of a field
 * changes, so that an older checkpoint is refused instead of misread. 3: an unclosed quote in a
 * CSV row now ends that record and the reader resynchronises, where it swallowed the rows after it.
 */
export const CHECKPOINT_VERSION = 3;

/** How much of the input a job had read, and the SHA-256 of exactly those bytes. */
export interface InputPrefix {
  /** Bytes of the input file (as stored: the compressed bytes of a compressed input). */
  bytes: number;
  sha256: string;
}

export interface Checkpoint {
  version: number;
  op: Op;
  /**
   * The job: one run of a file, a UUIDv7 written here before the first record is charged. Its
   * ledger entries are `<account>/<op>/file:<jobId>/<line or element>`; `--resume` continues it.
   */
  jobId: string;
  /** The input bytes read so far, hashed: a resume against another file is refused. */
  input: InputPrefix;
  /** Records fully written to the output (and charged, when metered). */
  recordsDone: number;
  /** Bytes of the output and errors files that hold exactly those records. */
  outputBytes: number;
  errorsBytes: number;
  /** Running totals, so that the final summary covers the whole job across resumes. */
  totals: CheckpointTotals;
  /**
   * The options that shape the output bytes (format, CSV options, gzip), so that a resume with
   * different ones is refused instead of appending rows of another shape.
   */
  formatKey?: string;
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
  /**
   * Records the reader or the format could not read (a subset of `rejected`), over the whole job,
   * so that --max-rejected counts across resumes. Absent in a checkpoint written before this
   * field existed (read as 0: such a job had not counted them).
   */
  unreadable: number;
  /** The first of them (at most FIRST_UNREADABLE_ROWS), with their position and reason. */
  unreadableRows: UnreadableRow[];
}

export function emptyTotals(): CheckpointTotals {
  return { records: 0, processed: 0, rejected: 0, credits: 0, byCode: {}, byMatchlevel: {}, elapsedMs: 0, unreadable: 0, unreadableRows: [] };
}

/**
 * Hashes the input bytes as the job reads them (wrap the raw file stream, before any
 * decompression), so that a checkpoint can say which bytes it was made from.
 */
export class InputDigest {
  private readonly hash: Hash = createHash('sha256');
  private bytes = 0;

  /** The same chunks, hashed on the way through. */
  async *wrap(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      this.hash.update(chunk);
      this.bytes += chunk.length;
      yield chunk;
    }
  }

  /** The bytes read so far and their hash. */
  prefix(): InputPrefix {
    return { bytes: this.bytes, sha256: this.hash.copy().digest('hex') };
  }
}

const READ = 1 << 20;

/**
 * Whether the file at `path` starts with exactly the bytes a checkpoint was made from: an
 * explanation when it does not, undefined when it does.
 */
export function checkInputPrefix(path: string, prefix: InputPrefix): string | undefined {
  const size = statSync(path).size;
  if (size < prefix.bytes) return `it has ${size} bytes, fewer than the ${prefix.bytes} the job had already read`;
  const h = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ);
    let pos = 0;
    while (pos < prefix.bytes) {
      const n = readSync(fd, buf, 0, Math.min(READ, prefix.bytes - pos), pos);
      if (n === 0) break;
      h.update(buf.subarray(0, n));
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
  return h.digest('hex') === prefix.sha256 ? undefined : `its first ${prefix.bytes} bytes differ from those the job had read`;
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
  // the rename itself is durable only once the directory is synced (where the filesystem can)
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } catch (err) {
    if (!['EINVAL', 'ENOTSUP', 'EPERM', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) throw new OutputError(`checkpoint ${path}`, err as NodeJS.ErrnoException);
  } finally {
    closeSync(dir);
  }
}

export function readCheckpoint(path: string): Checkpoint | undefined {
  if (!existsSync(path)) return undefined;
  const cp = JSON.parse(readFileSync(path, 'utf8')) as Checkpoint;
  if (cp?.version !== CHECKPOINT_VERSION) {
    // Its record numbers and byte counts may mean other records here: continuing could skip or repeat some.
    const v = (cp as Partial<Checkpoint> | null)?.version;
    const found = typeof v !== 'number' ? 'no version' : `version ${v}, written by ${v > CHECKPOINT_VERSION ? 'a newer' : 'an older'} addrflow`;
    throw new Error(`checkpoint ${path} has ${found}; this addrflow reads version ${CHECKPOINT_VERSION} only (records are numbered differently), so the job cannot be continued: run without --resume to start a new job (charged again)`);
  }
  return cp;
}

export function removeCheckpoint(path: string): void {
  rmSync(path, { force: true });
  rmSync(`${path}.tmp`, { force: true });
}
