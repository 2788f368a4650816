/**
 * `addrflow run`: a file job. Request elements from NDJSON or a JSON array, one NDJSON record per
 * element out; or CSV/TSV rows, each written back with the result columns appended; plain or
 * gzip. In input order, resumable, with progress, optionally metered against an account.
 * This module parses the command line; the file adapter runs the job (src/adapters/file/run-job.ts:
 * formats, the order of the checks and of authentication, metering, exit codes).
 */
import { parseArgs } from 'node:util';
import { OPS, type Op } from '../../contract/params.ts';
import { MAX_REPORT_ROWS } from '../../adapters/file/report/aggregate.ts';
import { JobOptionError, runJob } from '../../adapters/file/run-job.ts';
import { UsageError, type Command } from '../command.ts';
import { loadIndexForOp } from '../load-index.ts';
import { credentialsFrom } from '../credentials.ts';
import { intOption, oneOf, preferCountryOption } from '../options.ts';

const usage = `usage: addrflow run --op search|lines [--input FILE|-] [--output FILE|-] [--errors FILE]
                    [--format ndjson|json|csv|tsv] [--encoding utf-8|windows-1252|latin1|utf-16le|utf-16be]
                    [--delimiter ,|;|tab||] [--map param=Column[+Column…],…] [--prefix P] [--excel]
                    [--index DIR] [--workers N] [--batch-size N] [--resume] [--checkpoint FILE]
                    [--progress auto|bar|log|off] [--license L --guid G [--db URL]]
                    [--report FILE.html [--report-rows N]] [--max-rejected N] [--summary-json FILE]
                    [--explain] [--prefer-country CC]

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
    const progress = oneOf('progress', values.progress, ['auto', 'bar', 'log', 'off'] as const);
    const preferCountry = preferCountryOption(values['prefer-country']);
    if (preferCountry && op !== 'search') throw new UsageError('--prefer-country applies to --op search only');
    if (values.explain && op !== 'search') throw new UsageError('--explain: only --op search explains its answers');
    const inputPath = values.input!;
    const outputPath = values.output!;
    const checkpointPath = values.checkpoint ?? (outputPath !== '-' ? `${outputPath}.checkpoint` : undefined);
    if (values.resume && inputPath === '-') {
      throw new UsageError('--resume: stdin cannot be resumed (its bytes can be neither re-read nor checked against the checkpoint); run without --resume to start a new job, or give --input FILE');
    }
    if (values.resume && outputPath === '-') {
      throw new UsageError('--resume needs --output FILE (stdout cannot be rewound)');
    }
    try {
      return await runJob({
        op, input: inputPath, output: outputPath, errors: values.errors, checkpoint: checkpointPath, report: values.report,
        summaryJson: summaryPath, resume: values.resume!, explain: values.explain!, preferCountry, workers, batchSize, intervalMs, reportRows, maxRejected, progress,
        formats: { format: values.format, encoding: values.encoding, delimiter: values.delimiter, map: values.map, prefix: values.prefix, excel: values.excel },
        credentials: credentialsFrom(values), db: values.db,
        loadIndex: () => loadIndexForOp(op, values.index),
      });
    } catch (err) {
      if (err instanceof JobOptionError) throw new UsageError(err.message);
      throw err;
    }
  },
};

export default command;
