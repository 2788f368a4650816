/**
 * `addrflow run`: a file job. Request elements from NDJSON or a JSON array, one NDJSON record per
 * element out; or CSV/TSV rows, each written back with the result columns appended; plain or
 * gzip. In input order, resumable, with progress, optionally metered against an account.
 */
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { ReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { OPS, type Op } from '../../contract/params.ts';
import { asInputError, checkInput, InputError, openInput } from '../../adapters/file/input.ts';
import { CsvHeaderError } from '../../adapters/file/csv-reader.ts';
import { runFileJob, type JobSummary } from '../../adapters/file/job.ts';
import { checkInputPrefix, InputDigest, readCheckpoint, removeCheckpoint, type Checkpoint } from '../../adapters/file/checkpoint.ts';
import { OutputError, resumeProblem, Sink } from '../../adapters/file/sink.ts';
import { lockJobFiles } from '../../adapters/file/lock.ts';
import { checkReportState, emptyReportState, MAX_REPORT_ROWS, ReportAggregator } from '../../adapters/file/report/aggregate.ts';
import { renderReport } from '../../adapters/file/report/render.ts';
import { createProgress } from '../../adapters/file/progress.ts';
import { EnginePool } from '../../pool/engine-pool.ts';
import { Billing } from '../../billing/billing.ts';
import { Meter, type Hold } from '../../billing/meter.ts';
import { newRequestId } from '../../billing/request-id.ts';
import { ServiceError, START_ERRORS } from '../../contract/errors.ts';
import { validateCredentials } from '../../contract/validate.ts';
import type { JobMeter } from '../../adapters/file/job.ts';
import { createLogger, type Logger } from '../../log.ts';
import { UsageError, type Command } from '../command.ts';
import { loadIndexForOp } from '../load-index.ts';
import { credentialsFrom } from '../credentials.ts';
import { got, intOption, oneOf, preferCountryOption } from '../options.ts';
import { checkWritableFile } from '../../adapters/file/output-check.ts';
import { bindColumns, parseColumnMap } from '../../adapters/file/column-map.ts';
import type { CsvJobOptions, FormatChoice } from '../../adapters/file/record-source.ts';
import { parseEncodingOption } from '../../csv/decode.ts';
import { parseDelimiterOption } from '../../csv/detect.ts';
import { EXIT_CREDITS, EXIT_INPUT, EXIT_OUTPUT, EXIT_REFUSED } from '../../contract/exit-codes.ts';
import { unreadableOutcome } from '../../adapters/file/unreadable.ts';
import { summaryJson, writeJsonAtomic, type SummaryJsonFacts } from '../../adapters/file/summary-json.ts';

const usage = `usage: addrflow run --op search|lines [--input FILE|-] [--output FILE|-] [--errors FILE]
                    [--format ndjson|json|csv|tsv] [--encoding utf-8|windows-1252|latin1|utf-16le|utf-16be]
                    [--delimiter ,|;|tab||] [--map param=Column[+Column…],…] [--prefix P] [--excel]
                    [--index DIR] [--workers N] [--batch-size N] [--resume] [--checkpoint FILE]
                    [--progress auto|bar|log|off] [--license L --guid G [--db URL]]
                    [--report FILE.html [--report-rows N]] [--max-rejected N] [--summary-json FILE]
                    [--explain]
                    [--prefer-country CC]

  --op          lines (recipient block) or search (address lookup)
  --input       NDJSON, a JSON array of request elements, or CSV/TSV with a header row;
                gzip-compressed or not (recognised by content); '-' = stdin (default)
  --output      one record per input record, in input order: NDJSON for JSON input; for CSV
                input, every input column then the result columns; '.gz' = gzip; '-' = stdout
  --errors      rejected records go to this file, with their line/element/record number,
                instead of their output slot ('.gz' = gzip)
  --format      input format; default: by --input extension (.csv .tsv .ndjson .jsonl .json,
                also with .gz), else by content ({ or [ is JSON, anything else CSV)
  --encoding    CSV text encoding (default utf-8, BOM or not; bytes that are not UTF-8 give an
                error record for their row); windows-1252 or latin1 for Excel/CRM exports;
                utf-16le/utf-16be for UTF-16 without a BOM (with one, UTF-16 is read anyway).
                A header that looks like another encoding gets a hint at the start
  --delimiter   CSV input delimiter (default: detected among , ; tab | from the header row)
  --map         CSV columns for request parameters, when the header names differ:
                street=Strasse,zip=PLZ; several columns joined with a space: address=Str+Nr+Ort.
                A column named like a parameter needs no --map; other columns are carried through
  --prefix      prefix of the appended result columns (default result_; '' for bare keys)
  --excel       CSV output Excel opens directly: UTF-8 BOM, ';', CR LF, formula cells escaped
  --index       address index directory for --op search (default: the embedded default layer)
  --workers     worker threads (default: number of cores; 0 = run on the main thread)
  --batch-size  records per pool task (default 1000)
  --checkpoint  checkpoint file (default: OUTPUT.checkpoint when --output is a file)
  --checkpoint-interval  milliseconds between checkpoints (default 2000)
  --resume      continue the job of the checkpoint after a crash, a signal or exhausted credits;
                refused unless --input is the same file (a hash of the bytes read is checked);
                stdin cannot be resumed; with no checkpoint at all (killed before its first one),
                the job starts over as a new job and says so
  --progress    progress display: bar on a terminal, log lines otherwise (default auto)
  --license, --guid
                run under this account: same validation, prices, agreements and ledger as the
                HTTP adapter; without them the run is unmetered (operators' own data); env
                ADDRFLOW_LICENSE / ADDRFLOW_GUID keep them out of the process list
  --db          billing store: sqlite:PATH (default sqlite:data/addrflow.sqlite) or postgres://…
  --report      writes a self-contained HTML report of the job (counts per status code,
                matchlevel and country, relevance, a map of the answers, the rows to fix first);
                its aggregates ride in the checkpoint, so a resumed job's report covers it all
  --report-rows rows with their input in the report (default 50, at most 1000; 0 = no input data)
  --max-rejected
                unreadable rows accepted over the whole job (resumes included): rows the reader
                could not read as a record (bad CSV quoting, more fields than the header, not
                UTF-8, a line or element that is not JSON, an NDJSON line that is not a JSON
                object; a JSON-array element such as 42 is refused by validation). Up to N: exit 0.
                Past N the job stops at a record boundary with a checkpoint (exit 10); --resume
                with a higher N continues. Without it the job finishes every readable row and
                exits 9 when any row was unreadable. Rows the parameter table refuses (412/428)
                are not counted: they never change the exit code
  --explain     --op search: every record explains its answer (the input parts matched,
                corrected, inferred or ignored; each relevance deduction with its points): an
                \`explain\` key last in NDJSON, two CSV columns explain_parts and explain_deductions
                (with --prefix) after the result columns (docs/accuracy.md). Without it the output
                is the spec's keys only, and an element's own \`explain\` key is not obeyed
  --prefer-country
                search: a soft default country (ISO code of a destination, e.g. DE for a CRM
                export that is mostly German) for records that give no country: it decides
                among the countries a record leaves open (a postcode or a place name several
                countries have) and excludes none, unlike the record's own 'country'. A record's
                own 'prefer_country' wins. Answers it decided lose 5 relevance points
  --summary-json
                writes the job's summary as JSON (counts, unreadable rows, credits, exit code and
                its meaning, paths) to FILE, atomically, on every stop (docs/job-summary.md)

Every run without --resume is a new job and is charged for every record it processes; --resume
continues the job named in the checkpoint and never charges a record of it twice.

Exit codes: 0 done; 2 usage error; 3 stopped, balance ran out (top up, then --resume);
4 credentials refused (the job did not start); 5 the --index cannot be used; 6 the billing
store cannot be reached or --db is wrong; 7 the output could not be written (device full, closed
pipe, I/O error; with --output FILE, free space, then --resume); 8 the input cannot be read
(missing, a directory, no permission, read error); 9 finished every readable row, but rows were
unreadable (ADDR_ERR_ROWS_UNREADABLE; --max-rejected N accepts them); 10 stopped, more unreadable
rows than --max-rejected (ADDR_ERR_TOO_MANY_REJECTED; --resume with a higher N); 11 another job
holds the lock on this job's output, checkpoint, errors, report or summary file (ADDR_ERR_OUTPUT_LOCKED;
nothing was written); 130/143 stopped by SIGINT/SIGTERM (--resume).`;


/**
 * The file job's view of the metering path: one Meter for the job (ledger ids
 * `<account>/<op>/file:<job id>/<line or element>`). Batches are settled in the order they were
 * reserved (the job drains in order). Records are validated in the workers, after their batch is
 * reserved: a rejected record's credits are released at settle.
 */
function jobMeter(meter: Meter, op: Op): JobMeter {
  const holds: Hold[] = [];
  return {
    async reserve(positions) {
      const hold = await meter.hold(positions.map((p) => ({ op, record: p })), { partial: true });
      if (hold.covered === 0) {
        await meter.release(hold);
        return 0;
      }
      holds.push(hold);
      return hold.covered;
    },
    async settle(_positions, chargeable) {
      const s = await meter.settle(holds.shift()!, chargeable);
      return s.credits;
    },
    release: () => meter.close(),
  };
}

const command: Command = {
  usage,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        op: { type: 'string' },
        input: { type: 'string', default: '-' },
        output: { type: 'string', default: '-' },
        errors: { type: 'string' },
        index: { type: 'string' },
        workers: { type: 'string' },
        'batch-size': { type: 'string' },
        checkpoint: { type: 'string' },
        'checkpoint-interval': { type: 'string' },
        resume: { type: 'boolean', default: false },
        progress: { type: 'string', default: 'auto' },
        license: { type: 'string' },
        guid: { type: 'string' },
        db: { type: 'string' },
        format: { type: 'string' },
        encoding: { type: 'string', default: 'utf-8' },
        delimiter: { type: 'string' },
        map: { type: 'string' },
        prefix: { type: 'string', default: 'result_' },
        excel: { type: 'boolean', default: false },
        report: { type: 'string' },
        'report-rows': { type: 'string' },
        'max-rejected': { type: 'string' },
        'summary-json': { type: 'string' },
        explain: { type: 'boolean', default: false },
        'prefer-country': { type: 'string' },
      },
      strict: true,
    });
    const op: Op = oneOf('op', values.op, OPS);
    const workers = intOption('workers', values.workers, -1, 0);
    const batchSize = intOption('batch-size', values['batch-size'], 1000, 1);
    const intervalMs = intOption('checkpoint-interval', values['checkpoint-interval'], 2000, 1);
    const reportRows = intOption('report-rows', values['report-rows'], 50, 0, MAX_REPORT_ROWS);
    const maxRejected = values['max-rejected'] === undefined ? undefined : intOption('max-rejected', values['max-rejected'], 0, 0);
    const summaryPath = values['summary-json'];
    const preferCountry = preferCountryOption(values['prefer-country']);
    if (preferCountry && op !== 'search') throw new UsageError('--prefer-country applies to --op search only');
    oneOf('progress', values.progress, ['auto', 'bar', 'log', 'off']);
    const inputPath = values.input!;
    const outputPath = values.output!;
    const checkpointPath = values.checkpoint ?? (outputPath !== '-' ? `${outputPath}.checkpoint` : undefined);
    if (values.resume && inputPath === '-') {
      throw new UsageError('--resume: stdin cannot be resumed (its bytes can be neither re-read nor checked against the checkpoint); run without --resume to start a new job, or give --input FILE');
    }
    if (values.resume && outputPath === '-') {
      throw new UsageError('--resume needs --output FILE (stdout cannot be rewound)');
    }
    const files = fileFormats(op, inputPath, outputPath, values);
    // A .gz output's members end at batch ends: resuming it needs the same batch size.
    if (values.explain && op !== 'search') throw new UsageError('--explain: only --op search explains its answers');
    const formatKey = files.key + (outputPath.endsWith('.gz') ? ` batch=${batchSize}` : '') + (values.explain ? ' explain' : '') + (preferCountry ? ` prefer-country=${preferCountry}` : '');
    const log = createLogger();

    // [summary-json] what every stop writes to --summary-json; `summary` is what was done
    const paths = { input: inputPath, output: outputPath, errors: values.errors, report: values.report, checkpoint: checkpointPath };
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
    for (const [flag, path] of [['--output', outputPath], ['--errors', values.errors], ['--checkpoint', checkpointPath], ['--report', values.report], ['--summary-json', summaryPath]] as const) {
      if (path !== undefined && path !== '-') checkWritableFile(path, `${flag} ${path}`);
    }
    // [lock] One job per file (issue 19): another job on any of these stops this one here, exit 11,
    // before anything is written, truncated or charged. Released whichever way run() ends.
    using _lock = lockJobFiles({ output: outputPath, checkpoint: checkpointPath, errors: values.errors, report: values.report, summary: summaryPath });
    if (summaryPath !== undefined) {
      // Like the report: a summary that cannot be written is said now.
      try {
        writeJsonAtomic(summaryPath, null, true);
      } catch (err) {
        process.stderr.write(`addrflow run: ${START_ERRORS.OUTPUT_UNWRITABLE.code}: ${(err as Error).message}\n`);
        return EXIT_OUTPUT;
      }
    }
    if (values.report !== undefined) {
      // A report that cannot be written is said now, not after hours of work.
      try {
        writeReport(values.report, '', true);
      } catch (err) {
        process.stderr.write(`addrflow run: ${START_ERRORS.OUTPUT_UNWRITABLE.code}: ${(err as Error).message}\n`);
        return EXIT_OUTPUT;
      }
    }
    let resumeFrom: Checkpoint | undefined;
    if (values.resume) {
      try {
        resumeFrom = readCheckpoint(checkpointPath!);
      } catch (err) {
        throw new UsageError(`--resume: ${(err as Error).message}`);
      }
      // Every job writes a checkpoint (with its job id) before its first record; none means the
      // job died before that, charged nothing and claimed no output: it starts over as a new job.
      if (!resumeFrom) process.stderr.write(`addrflow run: --resume: no checkpoint at ${checkpointPath}; the job starts over from the first record\n`);
      else if (resumeFrom.op !== op) throw new UsageError(`--resume: ${checkpointPath} is a job of --op ${resumeFrom.op}, not ${op}`);
      const differs = resumeFrom && checkInputPrefix(inputPath, resumeFrom.input);
      if (differs) {
        throw new UsageError(`--resume refused: ${inputPath} is not the input of the job in ${checkpointPath} (${differs}); run without --resume to start a new job (charged again)`);
      }
      if (resumeFrom?.formatKey !== undefined && resumeFrom.formatKey !== formatKey) {
        throw new UsageError(`--resume: the job was started with other format options (${resumeFrom.formatKey}); resume with the same --format, --encoding, --delimiter, --map, --prefix, --excel, --explain, --prefer-country, output name and, for a .gz output, --batch-size`);
      }
      // The outputs the checkpoint counted must still hold what it counted (deleted or cut by hand).
      const gone = resumeFrom && [resumeProblem(outputPath, resumeFrom.outputBytes), values.errors ? resumeProblem(values.errors, resumeFrom.errorsBytes) : undefined].find(Boolean);
      if (gone) throw new UsageError(`--resume refused: ${gone}; run without --resume to start a new job (charged again)`);
    }
    // One run of a file is one job: a new id, unless this run continues the checkpoint's job.
    const jobId = resumeFrom?.jobId ?? newRequestId();

    // the index first: an unusable one stops the job before it opens the billing store
    const indexBuffer = await loadIndexForOp(op, values.index);
    const given = credentialsFrom(values);
    const metered = given.license !== undefined || given.guid !== undefined;
    let billing: Billing | undefined;
    let meter: JobMeter | undefined;
    if (metered) {
      const creds = validateCredentials(given);
      billing = await Billing.open(values.db);
      try {
        if (!creds.ok) throw new ServiceError(creds.error.errorcode === 401 ? 'UNAUTHORIZED' : 'INVALID_PARAMETER', creds.error.errormessage);
        const account = await billing.authenticate(creds.credentials, op);
        await billing.releaseExpired(); // reservations a killed process left behind
        meter = jobMeter(new Meter(billing, account.id, { kind: 'file', jobId }), op);
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
    const report = values.report === undefined ? undefined : new ReportAggregator(
      resumeFrom?.report ? checkReportState(resumeFrom.report)
        : { ...emptyReportState(op, reportRows, new Date()), notCovered: resumeFrom?.recordsDone ?? 0 });
    const input = openInput(inputPath);
    const digest = new InputDigest();
    const output = outputPath === '-' ? Sink.stdout() : Sink.file(outputPath, resumeFrom?.outputBytes);
    const errors = values.errors ? Sink.file(values.errors, resumeFrom ? resumeFrom.errorsBytes : undefined) : undefined;
    const inputSize = inputPath !== '-' ? statSync(inputPath).size : 0;
    const tty = values.progress === 'bar' || (values.progress === 'auto' && process.stderr.isTTY === true);
    const progress = values.progress === 'off' ? undefined : createProgress({ tty, log });

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
      if (!report || values.report === undefined) return true;
      try {
        writeReport(values.report, renderReport(report.state(), {
          jobId, input: inputPath === '-' ? 'stdin' : inputPath,
          output: outputPath === '-' ? 'stdout' : outputPath,
          end, finishedAt: new Date(), elapsedMs: s?.elapsedMs ?? 0, credits: meter ? (s?.credits ?? 0) : undefined,
          unit: s?.format === 'array' ? 'element' : s?.format === 'csv' ? 'row' : 'line',
          ...(s ? { unreadable: { count: s.unreadable, rows: s.unreadableRows, limit: maxRejected } } : {}),
        }));
        process.stderr.write(`  report: ${values.report}\n`);
        return true;
      } catch (err) {
        process.stderr.write(`addrflow run: ${START_ERRORS.OUTPUT_UNWRITABLE.code}: ${(err as Error).message}\n`);
        return false;
      }
    };
    try {
      const summary = await runFileJob({
        op, input: digest.wrap(input), output, pool, batchSize, signal: abort.signal,
        format: files.format, csv: files.csv, ...(values.explain ? { explain: true } : {}),
        gzip: { output: outputPath.endsWith('.gz'), errors: values.errors?.endsWith('.gz') ?? false },
        onEngineFailures: (positions) => log.error({ jobId, positions }, 'engine failure: error records (500) written in these slots, not charged'),
        ...(meter ? { meter } : {}),
        ...(errors ? { errors } : {}),
        ...(progress ? { progress } : {}),
        ...(report ? { report } : {}),
        ...(checkpointPath && inputPath !== '-' ? { checkpoint: { path: checkpointPath, jobId, inputPrefix: () => digest.prefix(), intervalMs, formatKey, ...(resumeFrom ? { resumeFrom } : {}) } } : {}),
        ...(maxRejected !== undefined ? { maxRejected } : {}),
        ...(preferCountry ? { defaults: { prefer_country: preferCountry } } : {}),
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
  },
};

/** What `--format`, the file names and the CSV options say about the job's formats. */
function fileFormats(
  op: Op, inputPath: string, outputPath: string,
  v: { format?: string | undefined; encoding?: string | undefined; delimiter?: string | undefined; map?: string | undefined; prefix?: string | undefined; excel?: boolean | undefined },
): { format: FormatChoice; csv: CsvJobOptions; key: string } {
  const ext = (p: string) => /\.([a-z]+)(\.gz)?$/i.exec(p)?.[1]?.toLowerCase();
  const byExt: Record<string, 'json' | 'csv' | 'tsv'> = { csv: 'csv', tsv: 'tsv', tab: 'tsv', ndjson: 'json', jsonl: 'json', json: 'json' };
  const given = v.format?.toLowerCase();
  if (given !== undefined && !['ndjson', 'json', 'csv', 'tsv'].includes(given)) throw new UsageError(`--format must be ndjson, json, csv or tsv, ${got(v.format!)}`);
  const kind = given === 'ndjson' ? 'json' : (given as 'json' | 'csv' | 'tsv' | undefined) ?? byExt[ext(inputPath) ?? ''];
  const outKind = byExt[ext(outputPath) ?? ''];
  if (kind === 'json' && (outKind === 'csv' || outKind === 'tsv')) throw new UsageError('CSV/TSV output needs CSV/TSV input (JSON input gives NDJSON output)');
  if ((kind === 'csv' || kind === 'tsv') && outKind === 'json') throw new UsageError('CSV/TSV input gives CSV/TSV output (the input columns with the results appended), not JSON');
  const encoding = parseEncodingOption(v.encoding ?? 'utf-8');
  if (!encoding) throw new UsageError(`--encoding must be utf-8, windows-1252, latin1, utf-16le or utf-16be, ${got(v.encoding ?? '')}`);
  const delimiter = v.delimiter === undefined ? (kind === 'tsv' ? '\t' : undefined) : parseDelimiterOption(v.delimiter);
  if (v.delimiter !== undefined && !delimiter) throw new UsageError(`--delimiter must be ',', ';', '|' or tab, ${got(v.delimiter)}`);
  const map = parseColumnMap(v.map, op);
  if (typeof map === 'string') throw new UsageError(map);
  const outDelimiter = outKind === 'tsv' ? '\t' : outKind === 'csv' && kind === 'tsv' ? ',' : undefined;
  const csv: CsvJobOptions = {
    encoding, excel: v.excel ?? false, prefix: v.prefix ?? 'result_',
    notice: (message) => process.stderr.write(`addrflow run: warning: ${message}\n`),
    ...(delimiter ? { delimiter } : {}),
    ...(outDelimiter ? { out: { delimiter: outDelimiter } } : {}),
    bind(header) {
      const b = bindColumns(header, map, op);
      if (typeof b === 'string') throw new UsageError(b);
      return b;
    },
  };
  const format: FormatChoice = kind === undefined ? 'auto' : kind === 'json' ? 'json' : 'csv';
  const key = [
    `format=${format}`, `encoding=${encoding}`, `delimiter=${JSON.stringify(delimiter ?? '')}`, `out=${JSON.stringify(outDelimiter ?? '')}`,
    `map=${v.map ?? ''}`, `prefix=${csv.prefix}`, `excel=${csv.excel}`, `gzip=${outputPath.endsWith('.gz')}`,
  ].join(' ');
  return { format, csv, key };
}

/**
 * Writes the report next to its final name, then renames it: a reader never sees half a file.
 * `probeOnly` checks that it can be written (at the start of a job), leaving nothing behind.
 */
function writeReport(path: string, html: string, probeOnly = false): void {
  const tmp = `${path}.tmp`;
  try {
    writeFileSync(tmp, html);
    if (probeOnly) rmSync(tmp);
    else renameSync(tmp, path);
  } catch (err) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was created
    }
    throw new OutputError(`report ${path}`, err as NodeJS.ErrnoException);
  }
}

/** The summary's unreadable rows: their count, then the first ones with their reasons. */
function unreadableSummaryLines(s: JobSummary): string[] {
  if (s.unreadable === 0) return [];
  const unit = s.format === 'array' ? 'element' : s.format === 'csv' ? 'record' : 'line';
  return [`  unreadable:    ${s.unreadable.toLocaleString('en')} (counted among the rejected)${s.unreadable > s.unreadableRows.length ? `, the first ${s.unreadableRows.length}:` : ':'}`,
    ...s.unreadableRows.map((r) => `    ${unit} ${r.position}: ${r.reason}`)];
}

/** Writes --summary-json (if given); a failure is said on stderr and answered false. */
function writeSummaryFile(path: string | undefined, facts: SummaryJsonFacts): boolean {
  if (path === undefined) return true;
  try {
    writeJsonAtomic(path, summaryJson(facts));
    return true;
  } catch (err) {
    process.stderr.write(`addrflow run: ${START_ERRORS.OUTPUT_UNWRITABLE.code}: ${(err as Error).message}\n`);
    return false;
  }
}

function printSummary(log: Logger, s: JobSummary, checkpointPath: string | undefined): void {
  const lines = [
    `addrflow run: ${s.end === 'done' ? 'finished' : 'STOPPED'} — ${s.records.toLocaleString('en')} records (${s.processed.toLocaleString('en')} processed, ${s.rejected.toLocaleString('en')} rejected) in ${(s.elapsedMs / 1000).toFixed(1)} s`,
    `  by code:       ${Object.entries(s.byCode).map(([k, v]) => `${k}=${v}`).join(' ') || '-'}`,
    `  by matchlevel: ${Object.entries(s.byMatchlevel).map(([k, v]) => `${k}=${v}`).join(' ') || '-'}`,
    ...unreadableSummaryLines(s),
    `  credits charged: ${s.credits}`,
    `  peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  ];
  if (s.end === 'credits') lines.push(`  The account balance ran out after ${s.recordsDone} records. Top up, then run the same command with --resume (checkpoint: ${checkpointPath}).`);
  if (s.end === 'signal') lines.push(`  Interrupted after ${s.recordsDone} records. Run the same command with --resume to continue (checkpoint: ${checkpointPath ?? 'none: output is stdout, start over'}).`);
  process.stderr.write(lines.join('\n') + '\n');
  log.info({ summary: s }, 'job summary');
}

export default command;
