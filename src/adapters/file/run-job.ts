/**
 * A file job from its options to its exit code: the file adapter's one entry for `addrflow run`
 * (the CLI only parses the command line). In order:
 *   formats (usage errors) → input readable (8) → outputs writable (7) → locks (11) → report and
 *   summary probes (7) → checkpoint for --resume (usage errors) → index (5) → billing store (6)
 *   and credentials (4: `Meter.open`, the one metering wiring) → pool → the job (runFileJob) →
 *   outputs closed, summary, report, --summary-json, checkpoint removed when done.
 * Exit codes: docs/errors.md (0 done, 3 balance ran out, 7 output, 8 input, 9/10 unreadable rows,
 * 130/143 signals).
 */
import { statSync } from 'node:fs';
import type { ReadStream } from 'node:fs';
import type { Op } from '../../contract/params.ts';
import { ServiceError, START_ERRORS } from '../../contract/errors.ts';
import { validateCredentials } from '../../contract/validate.ts';
import { EXIT_CREDITS, EXIT_INPUT, EXIT_OUTPUT, EXIT_REFUSED } from '../../contract/exit-codes.ts';
import { Billing } from '../../billing/billing.ts';
import { Meter } from '../../billing/meter.ts';
import { newRequestId } from '../../billing/request-id.ts';
import { EnginePool } from '../../pool/engine-pool.ts';
import { createLogger } from '../../log.ts';
import { asInputError, checkInput, InputError, openInput } from './input.ts';
import { CsvHeaderError } from './csv-reader.ts';
import { runFileJob, type JobSummary } from './job.ts';
import { checkInputPrefix, InputDigest, readCheckpoint, removeCheckpoint, type Checkpoint } from './checkpoint.ts';
import { OutputError, resumeProblem, Sink } from './sink.ts';
import { lockJobFiles } from './lock.ts';
import { checkReportState, emptyReportState, ReportAggregator } from './report/aggregate.ts';
import { renderReport } from './report/render.ts';
import { createProgress } from './progress.ts';
import { checkWritableFile } from './output-check.ts';
import { unreadableOutcome } from './unreadable.ts';
import { writeJsonAtomic, type SummaryJsonFacts } from './summary-json.ts';
import { fileFormats, JobOptionError, type FormatOptions } from './formats.ts';
import { printSummary, writeReport, writeSummaryFile } from './job-stops.ts';

/** A file job as the command line gave it (parsed and range-checked by the CLI). */
export interface RunJobOptions {
  op: Op;
  /** '-' = stdin / stdout. */
  input: string;
  output: string;
  errors?: string | undefined;
  checkpoint?: string | undefined;
  report?: string | undefined;
  summaryJson?: string | undefined;
  resume: boolean;
  /** --op search: every record explains its answer (an `explain` key / two CSV columns). */
  explain?: boolean;
  /** --op search: the soft default country of the records that give none. */
  preferCountry?: string | undefined;
  /** Worker threads; -1 = one per core. */
  workers: number;
  batchSize: number;
  intervalMs: number;
  reportRows: number;
  maxRejected?: number | undefined;
  progress: 'auto' | 'bar' | 'log' | 'off';
  formats: FormatOptions;
  /** The account, when metered (license and guid as given; validated here). */
  credentials: { license?: string; guid?: string };
  db?: string | undefined;
  /** Loads the index the op needs (none for lines), after the checks and before the billing store. */
  loadIndex: () => Promise<SharedArrayBuffer | undefined>;
}

/** Runs the job; answers the exit code. Bad option combinations throw JobOptionError. */
export async function runJob(o: RunJobOptions): Promise<number> {
  const { op, input: inputPath, output: outputPath, checkpoint: checkpointPath, summaryJson: summaryPath, workers, batchSize, intervalMs, reportRows, maxRejected } = o;
  const files = fileFormats(op, inputPath, outputPath, o.formats);
  // A .gz output's members end at batch ends: resuming it needs the same batch size.
  const formatKey = files.key + (outputPath.endsWith('.gz') ? ` batch=${batchSize}` : '') + (o.explain ? ' explain' : '') + (o.preferCountry ? ` prefer-country=${o.preferCountry}` : '');
  const log = createLogger();

  // [summary-json] what every stop writes to --summary-json; `summary` is what was done
  const paths = { input: inputPath, output: outputPath, errors: o.errors, report: o.report, checkpoint: checkpointPath };
  const stopFacts = (f: Pick<SummaryJsonFacts, 'exitCode' | 'end' | 'message' | 'summary'> & { jobId?: string; resumed?: boolean; metered?: boolean }): SummaryJsonFacts => ({
    op, jobId: f.jobId ?? '', resumed: f.resumed ?? false, metered: f.metered ?? false, maxRejected, paths, finishedAt: new Date(),
    unit: f.summary?.format === 'array' ? 'element' : f.summary?.format === 'csv' ? 'record' : 'line', ...f,
  });

  try {
    checkInput(inputPath);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    process.stderr.write(`addrflow run: ${START_ERRORS.INPUT_UNREADABLE.code}: ${err.message}\n`);
    writeSummaryFile(summaryPath, stopFacts({ exitCode: EXIT_INPUT, end: 'input-failed', message: err.message, summary: undefined }));
    return EXIT_INPUT;
  }
  // A missing or read-only directory is said now (ADDR_ERR_OUTPUT_UNWRITABLE, exit 7), before
  // the lock files are made and the index and the workers are loaded.
  for (const [flag, path] of [['--output', outputPath], ['--errors', o.errors], ['--checkpoint', checkpointPath], ['--report', o.report], ['--summary-json', summaryPath]] as const) {
    if (path !== undefined && path !== '-') checkWritableFile(path, `${flag} ${path}`);
  }
  // [lock] One job per file (issue 19): another job on any of these stops this one here, exit 11,
  // before anything is written, truncated or charged. Released whichever way run() ends.
  using _lock = lockJobFiles({ output: outputPath, checkpoint: checkpointPath, errors: o.errors, report: o.report, summary: summaryPath });
  if (summaryPath !== undefined) {
    // Like the report: a summary that cannot be written is said now.
    try {
      writeJsonAtomic(summaryPath, null, true);
    } catch (err) {
      process.stderr.write(`addrflow run: ${START_ERRORS.OUTPUT_UNWRITABLE.code}: ${(err as Error).message}\n`);
      return EXIT_OUTPUT;
    }
  }
  if (o.report !== undefined) {
    // A report that cannot be written is said now, not after hours of work.
    try {
      writeReport(o.report, '', true);
    } catch (err) {
      process.stderr.write(`addrflow run: ${START_ERRORS.OUTPUT_UNWRITABLE.code}: ${(err as Error).message}\n`);
      return EXIT_OUTPUT;
    }
  }
  let resumeFrom: Checkpoint | undefined;
  if (o.resume) {
    try {
      resumeFrom = readCheckpoint(checkpointPath!);
    } catch (err) {
      throw new JobOptionError(`--resume: ${(err as Error).message}`);
    }
    // Every job writes a checkpoint (with its job id) before its first record; none means the
    // job died before that, charged nothing and claimed no output: it starts over as a new job.
    if (!resumeFrom) process.stderr.write(`addrflow run: --resume: no checkpoint at ${checkpointPath}; the job starts over from the first record\n`);
    else if (resumeFrom.op !== op) throw new JobOptionError(`--resume: ${checkpointPath} is a job of --op ${resumeFrom.op}, not ${op}`);
    const differs = resumeFrom && checkInputPrefix(inputPath, resumeFrom.input);
    if (differs) {
      throw new JobOptionError(`--resume refused: ${inputPath} is not the input of the job in ${checkpointPath} (${differs}); run without --resume to start a new job (charged again)`);
    }
    if (resumeFrom?.formatKey !== undefined && resumeFrom.formatKey !== formatKey) {
      throw new JobOptionError(`--resume: the job was started with other format options (${resumeFrom.formatKey}); resume with the same --format, --encoding, --delimiter, --map, --prefix, --excel, --explain, --prefer-country, output name and, for a .gz output, --batch-size`);
    }
    // The outputs the checkpoint counted must still hold what it counted (deleted or cut by hand).
    const gone = resumeFrom && [resumeProblem(outputPath, resumeFrom.outputBytes), o.errors ? resumeProblem(o.errors, resumeFrom.errorsBytes) : undefined].find(Boolean);
    if (gone) throw new JobOptionError(`--resume refused: ${gone}; run without --resume to start a new job (charged again)`);
  }
  // One run of a file is one job: a new id, unless this run continues the checkpoint's job.
  const jobId = resumeFrom?.jobId ?? newRequestId();

  // the index first: an unusable one stops the job before it opens the billing store
  const indexBuffer = await o.loadIndex();
  const given = o.credentials;
  const metered = given.license !== undefined || given.guid !== undefined;
  let billing: Billing | undefined;
  let meter: Meter | undefined;
  if (metered) {
    const creds = validateCredentials(given);
    billing = await Billing.open(o.db);
    try {
      if (!creds.ok) throw new ServiceError(creds.error.errorcode === 401 ? 'UNAUTHORIZED' : 'INVALID_PARAMETER', creds.error.errormessage);
      // the one metering wiring: authenticate, sweep what a killed process left, the job's id as its job
      meter = await Meter.open(billing, creds.credentials, [op], { job: { kind: 'file', jobId }, sweep: true });
    } catch (err) {
      await billing.close();
      if (!(err instanceof ServiceError)) throw err;
      process.stderr.write(`addrflow run: ${err.name}: the job did not start: ${err.status} ${err.message}\n`);
      writeSummaryFile(summaryPath, stopFacts({ exitCode: EXIT_REFUSED, end: 'refused', message: `${err.status} ${err.message}`, summary: undefined, jobId, resumed: resumeFrom !== undefined, metered }));
      return EXIT_REFUSED;
    }
  }

  const pool = await EnginePool.create({
    ...(workers >= 0 ? { threads: workers } : {}),
    ...(indexBuffer ? { indexBuffer } : {}),
  });
  // [report] The aggregates continue from the checkpoint's, so the report covers the whole job.
  const report = o.report === undefined ? undefined : new ReportAggregator(
    resumeFrom?.report ? checkReportState(resumeFrom.report)
      : { ...emptyReportState(op, reportRows, new Date()), notCovered: resumeFrom?.recordsDone ?? 0 });
  const input = openInput(inputPath);
  const digest = new InputDigest();
  const output = outputPath === '-' ? Sink.stdout() : Sink.file(outputPath, resumeFrom?.outputBytes);
  const errors = o.errors ? Sink.file(o.errors, resumeFrom ? resumeFrom.errorsBytes : undefined) : undefined;
  const inputSize = inputPath !== '-' ? statSync(inputPath).size : 0;
  const tty = o.progress === 'bar' || (o.progress === 'auto' && process.stderr.isTTY === true);
  const progress = o.progress === 'off' ? undefined : createProgress({ tty, log });

  const abort = new AbortController();
  let signalCode = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    signalCode = sig === 'SIGINT' ? 130 : 143;
    log.warn({ signal: sig }, 'stopping: finishing the batches in flight and writing the checkpoint');
    abort.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // [unreadable] what runFileJob had done when an exception stopped it, and what it did
  let soFar: JobSummary | undefined;
  let finished: JobSummary | undefined;
  const resumed = resumeFrom !== undefined;
  // [report] written on every stop, with what was done and why it stopped
  const writeJobReport = (s: JobSummary | undefined, end: string): boolean => {
    if (!report || o.report === undefined) return true;
    try {
      writeReport(o.report, renderReport(report.state(), {
        jobId, input: inputPath === '-' ? 'stdin' : inputPath,
        output: outputPath === '-' ? 'stdout' : outputPath,
        end, finishedAt: new Date(), elapsedMs: s?.elapsedMs ?? 0, credits: meter ? (s?.credits ?? 0) : undefined,
        unit: s?.format === 'array' ? 'element' : s?.format === 'csv' ? 'row' : 'line',
        ...(s ? { unreadable: { count: s.unreadable, rows: s.unreadableRows, limit: maxRejected } } : {}),
      }));
      process.stderr.write(`  report: ${o.report}\n`);
      return true;
    } catch (err) {
      process.stderr.write(`addrflow run: ${START_ERRORS.OUTPUT_UNWRITABLE.code}: ${(err as Error).message}\n`);
      return false;
    }
  };
  try {
    const summary = await runFileJob({
      op, input: digest.wrap(input), output, pool, batchSize, signal: abort.signal,
      format: files.format, csv: files.csv, ...(o.explain ? { explain: true } : {}),
      ...(o.preferCountry ? { defaults: { prefer_country: o.preferCountry } } : {}),
      gzip: { output: outputPath.endsWith('.gz'), errors: o.errors?.endsWith('.gz') ?? false },
      onEngineFailures: (positions) => log.error({ jobId, positions }, 'engine failure: error records (500) written in these slots, not charged'),
      ...(meter ? { meter } : {}),
      ...(errors ? { errors } : {}),
      ...(progress ? { progress } : {}),
      ...(report ? { report } : {}),
      ...(checkpointPath && inputPath !== '-' ? { checkpoint: { path: checkpointPath, jobId, inputPrefix: () => digest.prefix(), intervalMs, formatKey, ...(resumeFrom ? { resumeFrom } : {}) } } : {}),
      ...(maxRejected !== undefined ? { maxRejected } : {}),
      onFailed: (s) => { soFar = s; },
      ...(inputSize > 0 ? { inputFraction: () => Math.min(1, (input as ReadStream).bytesRead / inputSize) } : {}),
    });
    finished = summary;
    await output.close();
    await errors?.close();
    printSummary(log, summary, checkpointPath);
    const policy = unreadableOutcome(summary, maxRejected, checkpointPath && inputPath !== '-' ? checkpointPath : undefined);
    if (policy) process.stderr.write(`addrflow run: ${policy.line}\n`);
    let code = policy?.exit ?? (summary.end === 'done' ? 0 : summary.end === 'credits' ? EXIT_CREDITS : signalCode);
    const end = summary.end === 'done' ? 'done' : summary.end === 'credits' ? 'the balance ran out'
      : summary.end === 'rejected' ? `more unreadable rows than --max-rejected ${maxRejected}` : 'interrupted by a signal';
    const reported = writeJobReport(summary, end);
    if (!reported && code === 0) code = EXIT_OUTPUT;
    if (!writeSummaryFile(summaryPath, stopFacts({ exitCode: code, end: summary.end, message: policy?.line, summary, jobId, resumed, metered })) && code === 0) code = EXIT_OUTPUT;
    // a report that could not be written keeps the checkpoint: --resume writes it
    if (summary.end === 'done' && reported && checkpointPath) removeCheckpoint(checkpointPath);
    return code;
  } catch (err) {
    // [faults] A full device, a closed pipe or an unreadable input: one clear line and an exit
    // code; the last checkpoint (written before the failure) is where --resume continues.
    // A header row that cannot be read (a quote never closed in it): the input cannot be read.
    const failure = err instanceof CsvHeaderError ? new InputError(inputPath, err.message) : asInputError(inputPath, err);
    if (!(failure instanceof OutputError) && !(failure instanceof InputError)) throw err;
    output.abandon();
    errors?.abandon();
    const resumable = failure instanceof OutputError && checkpointPath && outputPath !== '-';
    const failureCode = failure instanceof OutputError ? START_ERRORS.OUTPUT_UNWRITABLE.code : START_ERRORS.INPUT_UNREADABLE.code;
    process.stderr.write(`addrflow run: ${failureCode}: STOPPED — ${failure.message}.${resumable ? ` Free space (or fix the output), then run the same command with --resume (checkpoint: ${checkpointPath}).` : ''}\n`);
    const code = failure instanceof OutputError ? EXIT_OUTPUT : EXIT_INPUT;
    // [report] [summary-json] what was done before the failure, and the failure
    const done = finished ?? soFar;
    writeJobReport(done, failure instanceof OutputError ? `the output could not be written (${failure.message})` : `the input could not be read (${failure.message})`);
    writeSummaryFile(summaryPath, stopFacts({ exitCode: code, end: failure instanceof OutputError ? 'output-failed' : 'input-failed', message: failure.message, summary: done, jobId, resumed, metered }));
    return code;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    input.destroy();
    await pool.destroy();
    await billing?.close();
    log.flush();
  }
}

export { JobOptionError };
