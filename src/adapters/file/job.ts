/**
 * A file job: records from a reader, in batches, through the engine pool, to ordered outputs.
 *
 * - A fixed window of batches is in flight, so the pool stays busy while memory stays flat;
 *   results are written strictly in input order.
 * - With a meter (an account), each batch is reserved before it runs and settled after; when the
 *   balance runs out the job stops at a record boundary.
 * - With a checkpoint path, progress is saved atomically at intervals and at every stop, and a
 *   resumed job skips what is done, cutting the outputs back to the checkpoint first, so that its
 *   final output is byte-for-byte that of an uninterrupted run.
 */
import type { Op } from '../../contract/params.ts';
import type { EnginePool } from '../../pool/engine-pool.ts';
import { CHARGEABLE, MATCHLEVELS, OK, type RawResult } from '../../pool/tasks.ts';
import { emptyTotals, writeCheckpoint, type Checkpoint, type CheckpointTotals } from './checkpoint.ts';
import { detectFormat } from './input.ts';
import { readJsonArrayBatches } from './json-array-reader.ts';
import { readNdjsonBatches } from './ndjson-reader.ts';
import type { ProgressReporter } from './progress.ts';
import { batchLength, sliceBatch, type InputFormat, type RawBatch } from './raw-batch.ts';
import type { Sink } from './sink.ts';
import type { ReportAggregator } from './report/aggregate.ts';

/** Billing of a job, per batch (see src/billing/job-meter.ts). */
export interface JobMeter {
  /** Reserves credits for up to `records` records; answers how many are covered (0 = none). */
  reserve(records: number): Promise<number>;
  /** Charges the records of a processed batch whose flag is set; idempotent on their positions. */
  settle(positions: number[], chargeable: boolean[]): Promise<number>;
  /** Gives back what is reserved and not settled. */
  release(): Promise<void>;
}

export interface JobOptions {
  op: Op;
  input: AsyncIterable<Uint8Array>;
  output: Sink;
  /** Rejected records go here, with their position, instead of their output slot. */
  errors?: Sink;
  pool: EnginePool;
  batchSize?: number;
  /** Batches in flight at once (default: two per thread, at least two). */
  window?: number;
  meter?: JobMeter;
  /** Where to save progress; with `resumeFrom`, the checkpoint to continue from. */
  checkpoint?: { path: string; inputId: string; intervalMs?: number; resumeFrom?: Checkpoint };
  progress?: ProgressReporter;
  /** Fraction of the input consumed so far, for the progress ETA. */
  inputFraction?: () => number | undefined;
  /** Aborting stops reading new batches; in-flight ones finish and are checkpointed. */
  signal?: AbortSignal;
  /** --report: fed every ordered output batch; its state rides in the checkpoint. */
  report?: ReportAggregator;
}

export type JobEnd = 'done' | 'credits' | 'signal';

export interface JobSummary extends CheckpointTotals {
  format: InputFormat;
  end: JobEnd;
  /** Records covered by the final state (written, and charged when metered). */
  recordsDone: number;
}

export async function runFileJob(opts: JobOptions): Promise<JobSummary> {
  const started = performance.now();
  const batchSize = opts.batchSize ?? 1000;
  const window = Math.max(2, opts.window ?? opts.pool.threads * 2);
  const resume = opts.checkpoint?.resumeFrom;
  const totals: CheckpointTotals = resume ? structuredClone(resume.totals) : emptyTotals();
  const priorElapsed = totals.elapsedMs;
  let recordsDone = resume?.recordsDone ?? 0;
  let toSkip = recordsDone;

  const { format, chunks } = await detectFormat(opts.input);
  const batches = format === 'array' ? readJsonArrayBatches(chunks, batchSize) : readNdjsonBatches(chunks, batchSize);
  const unit = format === 'array' ? 'element' : 'line';
  let end: JobEnd = 'done';
  let lastCheckpoint = performance.now();

  const saveCheckpoint = async (stoppedBecause?: string): Promise<void> => {
    if (!opts.checkpoint) return;
    await opts.output.sync();
    await opts.errors?.sync();
    totals.elapsedMs = priorElapsed + Math.round(performance.now() - started);
    const cp: Checkpoint = {
      version: 1, op: opts.op, inputId: opts.checkpoint.inputId, recordsDone,
      outputBytes: opts.output.bytes, errorsBytes: opts.errors?.bytes ?? 0, totals,
    };
    if (stoppedBecause) cp.stoppedBecause = stoppedBecause;
    if (opts.report) cp.report = opts.report.state(); // [report] the report's aggregates
    writeCheckpoint(opts.checkpoint.path, cp);
    lastCheckpoint = performance.now();
  };

  const inFlight: Array<{ batch: RawBatch; result: Promise<RawResult> }> = [];
  const drainOne = async (): Promise<void> => {
    const { batch, result: pending } = inFlight.shift()!;
    const result = await pending;
    const n = result.flags.length;
    if (opts.meter) {
      const chargeable = Array.from(result.flags, (f) => (f & CHARGEABLE) !== 0);
      totals.credits += await opts.meter.settle(batch.positions, chargeable);
    }
    for (let i = 0; i < n; i++) {
      totals.records++;
      if (result.flags[i]! & OK) totals.processed++;
      else totals.rejected++;
      const code = result.codes[i]!;
      totals.byCode[code] = (totals.byCode[code] ?? 0) + 1;
      const ml = MATCHLEVELS[result.matchlevels[i]!];
      if (ml) totals.byMatchlevel[ml] = (totals.byMatchlevel[ml] ?? 0) + 1;
    }
    opts.report?.addBatch(batch.positions, result); // [report] one call per ordered output batch
    await opts.output.write(result.output);
    if (result.errors.length) await opts.errors!.write(result.errors);
    recordsDone += n;
    opts.progress?.update({ records: totals.records, errors: totals.rejected, fraction: opts.inputFraction?.() });
    if (opts.checkpoint && performance.now() - lastCheckpoint >= (opts.checkpoint.intervalMs ?? 2000)) {
      await saveCheckpoint();
    }
  };

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
      if (opts.meter) {
        const covered = await opts.meter.reserve(batchLength(batch));
        if (covered < batchLength(batch)) {
          end = 'credits';
          if (covered === 0) break;
          batch = sliceBatch(batch, 0, covered);
        }
      }
      // The batch's bytes are transferred to a worker; only its positions are kept here.
      const result = opts.pool.runRaw(opts.op, {
        ...batch, unit, separateErrors: opts.errors !== undefined,
        ...(opts.report ? { report: opts.report.request } : {}), // [report] facts for the report
      });
      result.catch(() => {}); // awaited in order by drainOne; no unhandled rejection meanwhile
      inFlight.push({ batch, result });
      if (inFlight.length >= window) await drainOne();
      if (end !== 'done') break;
    }
    while (inFlight.length) await drainOne();
  } finally {
    await Promise.allSettled(inFlight.map((f) => f.result));
    await opts.meter?.release();
    opts.progress?.done();
  }
  if (end !== 'done') {
    await saveCheckpoint(end === 'credits' ? 'the account balance ran out' : 'interrupted by a signal');
  }
  totals.elapsedMs = priorElapsed + Math.round(performance.now() - started);
  return { ...totals, format, end, recordsDone };
}
