/**
 * A file job: records from a reader, in batches, through the engine pool, to ordered outputs.
 *
 * - A fixed window of batches is in flight, so the pool stays busy while memory stays flat;
 *   results are written strictly in input order.
 * - With a meter (an account), each batch is held before it runs and settled after it, in order
 *   (the one metering wiring, src/billing/meter.ts: the meter's job is the job id, a record's key
 *   its position); when the balance runs out the job stops at a record boundary. Records are
 *   validated in the workers, after their batch is held: a rejected one's credits are released
 *   at settle.
 * - With a checkpoint path, a checkpoint naming the job (its id) and the input bytes read (their
 *   hash) is written BEFORE the first record is reserved or charged, so a job killed at any point
 *   can be resumed as the same job: records it had charged are never charged again.
 * - With a checkpoint path, progress is saved atomically at intervals and at every stop, and a
 *   resumed job skips what is done, cutting the outputs back to the checkpoint first, so that its
 *   final output is byte-for-byte that of an uninterrupted run.
 * - Records the reader or the format could not read (flag UNREADABLE) are counted over the whole
 *   job, the first few listed; with `maxRejected`, the job stops at the start of the batch that
 *   would take their count past it, as for the balance running out (src/adapters/file/unreadable.ts).
 */
import { ERRORS } from '../../contract/errors.ts';
import type { Op } from '../../contract/params.ts';
import type { ElementDefaults } from '../../contract/validate.ts';
import type { EnginePool } from '../../pool/engine-pool.ts';
import { CHARGEABLE, MATCHLEVELS, OK, type RawResult } from './worker/batch-task.ts';
import { runFileBatchOnPool } from './pool-batch.ts';
import { countUnreadable, FIRST_UNREADABLE_ROWS, unreadableRows, type UnreadableRow } from './unreadable.ts';
import { gzipSync } from 'node:zlib';
import { CHECKPOINT_VERSION, emptyTotals, writeCheckpoint, type Checkpoint, type CheckpointTotals, type InputPrefix } from './checkpoint.ts';
import type { ProgressReporter } from './progress.ts';
import { openRecordSource, type CsvJobOptions, type FormatChoice } from './record-source.ts';
import { batchLength, sliceBatch, type InputFormat, type RawBatch } from './raw-batch.ts';
import type { Sink } from './sink.ts';
import type { ReportAggregator } from './report/aggregate.ts';
import type { Hold, Meter } from '../../billing/meter.ts';

export interface JobOptions {
  op: Op;
  input: AsyncIterable<Uint8Array>;
  /** Input format: 'auto' (default) tells NDJSON, a JSON array and CSV apart by content. */
  format?: FormatChoice;
  /** CSV input and output options (CSV input always gives CSV output). */
  csv?: CsvJobOptions;
  /** --explain (search): every record carries its explanation (a JSON key, or two CSV columns). */
  explain?: boolean;
  /** Output / errors written gzip-compressed, one member per batch, so they stay resumable. */
  gzip?: { output: boolean; errors: boolean };
  output: Sink;
  /** Rejected records go here, with their position, instead of their output slot. */
  errors?: Sink;
  pool: EnginePool;
  batchSize?: number;
  /** Batches in flight at once (default: two per thread, at least two). */
  window?: number;
  /** The job's meter (Meter.open with the job id as its job): metered when given; closed when the job ends. */
  meter?: Meter;
  /** Where to save progress; with `resumeFrom`, the checkpoint to continue from. */
  checkpoint?: {
    path: string;
    /** The job's id (a resumed job's is the checkpoint's). */
    jobId: string;
    /** The input bytes read so far and their hash (src/adapters/file/checkpoint.ts InputDigest). */
    inputPrefix: () => InputPrefix;
    intervalMs?: number;
    resumeFrom?: Checkpoint;
    /** The options that shape the output (format, CSV options, gzip): a resume must match them. */
    formatKey?: string;
  };
  progress?: ProgressReporter;
  /** Fraction of the input consumed so far, for the progress ETA. */
  inputFraction?: () => number | undefined;
  /** Aborting stops reading new batches; in-flight ones finish and are checkpointed. */
  signal?: AbortSignal;
  /**
   * Records the engine failed on (an error record with errorcode 500 in their slot, never
   * charged), by line/element number, once per batch: for the log.
   */
  onEngineFailures?: (positions: number[]) => void;
  /** --report: fed every ordered output batch; its state rides in the checkpoint. */
  report?: ReportAggregator;
  /**
   * --max-rejected: unreadable records accepted over the whole job (resumes included); the job
   * stops before the batch that would pass it. Undefined: no limit (the caller says what a
   * finished job with unreadable rows means).
   */
  maxRejected?: number;
  /** Called with what was done when the job ends by an exception (output or input failure). */
  onFailed?: (soFar: JobSummary) => void;
  /** Values for records that do not give their own (`--prefer-country`), checked by the caller. */
  defaults?: ElementDefaults;
}

/** 'rejected': stopped, more unreadable records than `maxRejected`. */
export type JobEnd = 'done' | 'credits' | 'signal' | 'rejected';

/** The code of an error record the engine failed on (see src/adapters/file/worker/record-loop.ts). */
const ENGINE_FAILURE = ERRORS.INTERNAL.status;

export interface JobSummary extends CheckpointTotals {
  format: InputFormat;
  end: JobEnd;
  /** Records covered by the final state (written, and charged when metered). */
  recordsDone: number;
  /**
   * With end 'rejected': the batch the job stopped before (not written, not charged): its first
   * record and its first unreadable rows, the one past the limit among them.
   */
  stoppedBefore?: { position: number; unreadable: number; rows: UnreadableRow[] };
}

export async function runFileJob(opts: JobOptions): Promise<JobSummary> {
  const live: { soFar?: () => JobSummary } = {};
  try {
    return await runJob(opts, live);
  } catch (err) {
    if (live.soFar) opts.onFailed?.(live.soFar());
    throw err;
  }
}

async function runJob(opts: JobOptions, live: { soFar?: () => JobSummary }): Promise<JobSummary> {
  const started = performance.now();
  const batchSize = opts.batchSize ?? 1000;
  const window = Math.max(2, opts.window ?? opts.pool.threads * 2);
  const resume = opts.checkpoint?.resumeFrom;
  const totals: CheckpointTotals = resume ? structuredClone(resume.totals) : emptyTotals();
  // a checkpoint from before the unreadable count (the version is bumped elsewhere)
  totals.unreadable ??= 0;
  totals.unreadableRows ??= [];
  const priorElapsed = totals.elapsedMs;
  let recordsDone = resume?.recordsDone ?? 0;
  let toSkip = recordsDone;

  let format: InputFormat | undefined;
  let end: JobEnd = 'done';
  let stoppedBefore: JobSummary['stoppedBefore'];
  live.soFar = () => {
    totals.elapsedMs = priorElapsed + Math.round(performance.now() - started);
    return { ...structuredClone(totals), format: format ?? 'ndjson', end, recordsDone, ...(stoppedBefore ? { stoppedBefore } : {}) };
  };
  const source = await openRecordSource(opts.input, { op: opts.op, format: opts.format ?? 'auto', batchSize, ...(opts.csv ? { csv: opts.csv } : {}), ...(opts.explain ? { explain: true } : {}) });
  const { unit, batches } = source;
  format = source.format;
  const errorShape = { separateErrors: opts.errors !== undefined, ...(source.csv ? { csv: source.csv.out } : {}) };
  const gzip = opts.gzip?.output || (opts.gzip?.errors && opts.errors) ? opts.gzip : undefined;
  if (!resume) {
    // A fresh output starts with the CSV header rows (a resumed one has them within its bytes).
    if (source.outputHeader) await writeText(opts.output, source.outputHeader, opts.gzip?.output);
    if (source.errorsHeader && opts.errors) await writeText(opts.errors, source.errorsHeader, opts.gzip?.errors);
  }
  let lastCheckpoint = performance.now();

  const saveCheckpoint = async (stoppedBecause?: string): Promise<void> => {
    if (!opts.checkpoint) return;
    await opts.output.sync();
    await opts.errors?.sync();
    totals.elapsedMs = priorElapsed + Math.round(performance.now() - started);
    const cp: Checkpoint = {
      version: CHECKPOINT_VERSION, op: opts.op, jobId: opts.checkpoint.jobId, input: opts.checkpoint.inputPrefix(), recordsDone,
      outputBytes: opts.output.bytes, errorsBytes: opts.errors?.bytes ?? 0, totals,
    };
    if (opts.checkpoint.formatKey) cp.formatKey = opts.checkpoint.formatKey;
    if (stoppedBecause) cp.stoppedBecause = stoppedBecause;
    if (opts.report) cp.report = opts.report.state(); // [report] the report's aggregates
    writeCheckpoint(opts.checkpoint.path, cp);
    lastCheckpoint = performance.now();
  };

  const inFlight: Array<{ batch: RawBatch; result: Promise<RawResult>; hold: Hold | undefined }> = [];
  const drainOne = async (): Promise<void> => {
    const { batch, result: pending, hold } = inFlight.shift()!;
    const result = await pending;
    const n = result.flags.length;
    const unreadable = countUnreadable(result.flags);
    if (opts.maxRejected !== undefined && totals.unreadable + unreadable > opts.maxRejected) {
      // Stop at this batch's start: neither written nor charged (its reservation is released), so
      // the output and the checkpoint hold exactly the records before it, as for exit 3.
      end = 'rejected';
      stoppedBefore = { position: batch.positions[0]!, unreadable, rows: unreadableRows(result, batch.positions, batch.readerErrors, errorShape, FIRST_UNREADABLE_ROWS) };
      return;
    }
    if (opts.meter && hold) {
      const chargeable = Array.from(result.flags, (f) => (f & CHARGEABLE) !== 0);
      totals.credits += (await opts.meter.settle(hold, chargeable)).credits;
    }
    // Written before it is counted: a job that fails to write says what it had written.
    await opts.output.writeBytes(result.output);
    if (result.errors.byteLength) await opts.errors!.writeBytes(result.errors);
    if (unreadable > 0) {
      totals.unreadable += unreadable;
      const room = FIRST_UNREADABLE_ROWS - totals.unreadableRows.length;
      if (room > 0) totals.unreadableRows.push(...unreadableRows(result, batch.positions, batch.readerErrors, errorShape, room));
    }
    let failed: number[] | undefined;
    for (let i = 0; i < n; i++) {
      if (!(result.flags[i]! & OK) && result.codes[i] === ENGINE_FAILURE) (failed ??= []).push(batch.positions[i]!);
      totals.records++;
      if (result.flags[i]! & OK) totals.processed++;
      else totals.rejected++;
      const code = result.codes[i]!;
      totals.byCode[code] = (totals.byCode[code] ?? 0) + 1;
      const ml = MATCHLEVELS[result.matchlevels[i]!];
      if (ml) totals.byMatchlevel[ml] = (totals.byMatchlevel[ml] ?? 0) + 1;
    }
    if (failed) opts.onEngineFailures?.(failed);
    opts.report?.addBatch(batch.positions, result); // [report] one call per ordered output batch
    recordsDone += n;
    opts.progress?.update({ records: totals.records, errors: totals.rejected, fraction: opts.inputFraction?.() });
    if (opts.checkpoint && performance.now() - lastCheckpoint >= (opts.checkpoint.intervalMs ?? 2000)) {
      await saveCheckpoint();
    }
  };

  // the job's id is durable before anything is charged (a resumed job's checkpoint already holds it)
  if (!resume) await saveCheckpoint();
  try {
    // [faults] A checkpoint before the first record is written, so that a job killed at any
    // moment has one: --resume then cuts the output back to what that checkpoint claims.
    if (!resume) await saveCheckpoint();
    for await (let batch of batches) {
      if (opts.signal?.aborted) {
        end = 'signal';
        break;
      }
      if (toSkip > 0) {
        if (batchLength(batch) <= toSkip) {
          toSkip -= batchLength(batch);
          continue;
        }
        batch = sliceBatch(batch, toSkip, batchLength(batch));
        toSkip = 0;
      }
      let hold: Hold | undefined;
      if (opts.meter) {
        hold = await opts.meter.hold(batch.positions.map((p) => ({ op: opts.op, record: p })), { partial: true });
        const covered = hold.covered;
        if (covered === 0) await opts.meter.release(hold);
        if (covered < batchLength(batch)) {
          end = 'credits';
          // A gzip output ends its members at batch ends only, so that a resumed .gz is byte for
          // byte an uninterrupted one: it stops before a batch the balance covers only in part.
          if (covered === 0 || gzip?.output) break;
          batch = sliceBatch(batch, 0, covered);
        }
      }
      // The batch's bytes are transferred to a worker; only its positions are kept here.
      const result = runFileBatchOnPool(opts.pool, opts.op, {
        ...batch, unit, separateErrors: opts.errors !== undefined,
        ...(source.csv ? { csv: source.csv } : {}),
        ...(gzip ? { gzip: { output: gzip.output, errors: gzip.errors && opts.errors !== undefined } } : {}),
        ...(opts.report ? { report: opts.report.request } : {}), // [report] facts for the report
        ...(opts.explain ? { explain: true } : {}),
        ...(opts.defaults ? { defaults: opts.defaults } : {}),
      });
      result.catch(() => {}); // awaited in order by drainOne; no unhandled rejection meanwhile
      inFlight.push({ batch, result, hold });
      if (inFlight.length >= window) await drainOne();
      if (end !== 'done') break;
    }
    // after a 'rejected' stop nothing more is written: the batches still in flight are dropped
    // (`end` is set inside drainOne, which the compiler's narrowing does not see)
    while (inFlight.length && (end as JobEnd) !== 'rejected') await drainOne();
  } finally {
    await Promise.allSettled(inFlight.map((f) => f.result));
    await opts.meter?.close(); // gives back what is held and not settled
    opts.progress?.done();
  }
  if (end !== 'done') {
    await saveCheckpoint(end === 'credits' ? 'the account balance ran out'
      : (end as JobEnd) === 'rejected' ? `more unreadable records than --max-rejected ${opts.maxRejected}` : 'interrupted by a signal');
  }
  totals.elapsedMs = priorElapsed + Math.round(performance.now() - started);
  return { ...totals, format: source.format, end, recordsDone, ...(stoppedBefore ? { stoppedBefore } : {}) };
}

/** Text written as it is, or as a gzip member of its own. */
async function writeText(sink: Sink, text: string, gzip: boolean | undefined): Promise<void> {
  if (gzip) await sink.writeBytes(gzipSync(text));
  else await sink.write(text);
}
