/**
 * `addrflow run`: a file job. Request elements from NDJSON or a JSON array, one NDJSON record per
 * element out, in input order; resumable, with progress, optionally metered against an account.
 */
import { statSync } from 'node:fs';
import type { ReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { OPS, type Op } from '../../contract/params.ts';
import { openInput } from '../../adapters/file/input.ts';
import { runFileJob, type JobSummary } from '../../adapters/file/job.ts';
import { fileIdentity, readCheckpoint, removeCheckpoint, type Checkpoint } from '../../adapters/file/checkpoint.ts';
import { Sink } from '../../adapters/file/sink.ts';
import { createProgress } from '../../adapters/file/progress.ts';
import { EnginePool } from '../../pool/engine-pool.ts';
import { Billing, type Reservation } from '../../billing/billing.ts';
import { MeteredSession } from '../../billing/metered-session.ts';
import { ServiceError } from '../../contract/errors.ts';
import { validateCredentials } from '../../contract/validate.ts';
import type { JobMeter } from '../../adapters/file/job.ts';
import { createLogger, type Logger } from '../../log.ts';
import { UsageError, type Command } from '../main.ts';
import { loadIndexForOp } from '../load-index.ts';
import { credentialsFrom } from '../credentials.ts';
import { intOption } from '../options.ts';
import { EXIT_CREDITS, EXIT_REFUSED } from '../exit-codes.ts';

const usage = `usage: addrflow run --op search|lines [--input FILE|-] [--output FILE|-] [--errors FILE]
                    [--index DIR] [--workers N] [--batch-size N] [--resume] [--checkpoint FILE]
                    [--progress auto|bar|log|off] [--license L --guid G [--db URL] [--job-id ID]]

  --op          lines (recipient block) or search (address lookup)
  --input       NDJSON or a JSON array of request elements (detected); '-' = stdin (default)
  --output      NDJSON, one record per input element, in input order; '-' = stdout (default)
  --errors      rejected records go to this file, with their line/element number, instead of
                their output slot
  --index       address index directory for --op search (default: the embedded default layer)
  --workers     worker threads (default: number of cores; 0 = run on the main thread)
  --batch-size  records per pool task (default 1000)
  --checkpoint  checkpoint file (default: OUTPUT.checkpoint when --output is a file)
  --checkpoint-interval  milliseconds between checkpoints (default 2000)
  --resume      continue from the checkpoint after a crash, a signal or exhausted credits
  --progress    progress display: bar on a terminal, log lines otherwise (default auto)
  --license, --guid
                run under this account: same validation, prices, agreements and ledger as the
                HTTP adapter; without them the run is unmetered (operators' own data); env
                ADDRFLOW_LICENSE / ADDRFLOW_GUID keep them out of the process list
  --db          billing store: sqlite:PATH (default sqlite:data/addrflow.sqlite) or postgres://…
  --job-id      names the ledger entries of a metered job reading stdin (a file input is named by
                its content identity)

Exit codes: 0 done; 2 usage error; 3 stopped, balance ran out (top up, then --resume);
4 credentials refused (the job did not start); 130/143 stopped by SIGINT/SIGTERM (--resume).`;


/**
 * The file job's view of a metered session. Batches are settled in the order they were reserved
 * (the job drains in order), and ledger ids are `<input identity>/<line or element>`.
 */
function sessionMeter(session: MeteredSession, prefix: string): JobMeter {
  const handles: Reservation[] = [];
  return {
    async reserve(n) {
      const r = await session.reserve(n);
      if (!r) return 0;
      handles.push(r.handle);
      return r.covered;
    },
    settle: (positions, chargeable) => session.settle(handles.shift()!, positions.map((p) => `${prefix}/${p}`), chargeable),
    release: () => session.release(),
  };
}

const command: Command = {
  summary: 'run a file job (NDJSON or JSON array in, NDJSON out)',
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
        'job-id': { type: 'string' },
      },
      strict: true,
    });
    const op = values.op as Op | undefined;
    if (!op || !OPS.includes(op)) throw new UsageError('--op must be search or lines');
    const workers = intOption('workers', values.workers, -1, 0);
    const batchSize = intOption('batch-size', values['batch-size'], 1000, 1);
    const intervalMs = intOption('checkpoint-interval', values['checkpoint-interval'], 2000, 1);
    if (!['auto', 'bar', 'log', 'off'].includes(values.progress!)) throw new UsageError('--progress must be auto, bar, log or off');
    const inputPath = values.input!;
    const outputPath = values.output!;
    const checkpointPath = values.checkpoint ?? (outputPath !== '-' ? `${outputPath}.checkpoint` : undefined);
    if (values.resume && (outputPath === '-' || inputPath === '-')) {
      throw new UsageError('--resume needs --input FILE and --output FILE (stdin and stdout cannot be rewound)');
    }
    const log = createLogger();

    const inputId = inputPath !== '-' ? fileIdentity(inputPath) : undefined;
    let resumeFrom: Checkpoint | undefined;
    if (values.resume) {
      resumeFrom = readCheckpoint(checkpointPath!);
      if (!resumeFrom) throw new UsageError(`--resume: no checkpoint at ${checkpointPath}; run without --resume to start over`);
      if (resumeFrom.inputId !== inputId || resumeFrom.op !== op) {
        throw new UsageError(`--resume: ${checkpointPath} belongs to another input file or operation`);
      }
    }

    const given = credentialsFrom(values);
    const metered = given.license !== undefined || given.guid !== undefined;
    const ledgerPrefix = inputId ? `file:${inputId}` : values['job-id'] ? `job:${values['job-id']}` : undefined;
    if (metered && !ledgerPrefix) throw new UsageError('a metered job reading stdin needs --job-id (it names the ledger entries)');
    let billing: Billing | undefined;
    let meter: JobMeter | undefined;
    if (metered) {
      const creds = validateCredentials(given);
      billing = await Billing.open(values.db);
      try {
        if (!creds.ok) throw new ServiceError(creds.error.errorcode === 401 ? 'UNAUTHORIZED' : 'INVALID_PARAMETER', creds.error.errormessage);
        meter = sessionMeter(await MeteredSession.start(billing, creds.credentials, op), ledgerPrefix!);
      } catch (err) {
        await billing.close();
        if (!(err instanceof ServiceError)) throw err;
        process.stderr.write(`addrflow run: the job did not start: ${err.status} ${err.message}\n`);
        return EXIT_REFUSED;
      }
    }

    const indexBuffer = await loadIndexForOp(op, values.index);
    const pool = await EnginePool.create({
      ...(workers >= 0 ? { threads: workers } : {}),
      ...(indexBuffer ? { indexBuffer } : {}),
    });
    const input = openInput(inputPath);
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
    try {
      const summary = await runFileJob({
        op, input, output, pool, batchSize, signal: abort.signal,
        ...(meter ? { meter } : {}),
        ...(errors ? { errors } : {}),
        ...(progress ? { progress } : {}),
        ...(checkpointPath && inputId ? { checkpoint: { path: checkpointPath, inputId, intervalMs, ...(resumeFrom ? { resumeFrom } : {}) } } : {}),
        ...(inputSize > 0 ? { inputFraction: () => Math.min(1, (input as ReadStream).bytesRead / inputSize) } : {}),
      });
      await output.close();
      await errors?.close();
      report(log, summary, checkpointPath);
      if (summary.end === 'done') {
        if (checkpointPath) removeCheckpoint(checkpointPath);
        return 0;
      }
      return summary.end === 'credits' ? EXIT_CREDITS : signalCode;
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

function report(log: Logger, s: JobSummary, checkpointPath: string | undefined): void {
  const lines = [
    `addrflow run: ${s.end === 'done' ? 'finished' : 'STOPPED'} — ${s.records.toLocaleString('en')} records (${s.processed.toLocaleString('en')} processed, ${s.rejected.toLocaleString('en')} rejected) in ${(s.elapsedMs / 1000).toFixed(1)} s`,
    `  by code:       ${Object.entries(s.byCode).map(([k, v]) => `${k}=${v}`).join(' ') || '-'}`,
    `  by matchlevel: ${Object.entries(s.byMatchlevel).map(([k, v]) => `${k}=${v}`).join(' ') || '-'}`,
    `  credits charged: ${s.credits}`,
    `  peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  ];
  if (s.end === 'credits') lines.push(`  The account balance ran out after ${s.recordsDone} records. Top up, then run the same command with --resume (checkpoint: ${checkpointPath}).`);
  if (s.end === 'signal') lines.push(`  Interrupted after ${s.recordsDone} records. Run the same command with --resume to continue (checkpoint: ${checkpointPath ?? 'none: output is stdout, start over'}).`);
  process.stderr.write(lines.join('\n') + '\n');
  log.info({ summary: s }, 'job summary');
}

export default command;
