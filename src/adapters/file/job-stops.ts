/**
 * What a file job leaves when it stops, however it stops: the summary on stderr, the HTML report
 * and the `--summary-json` file, each written whole or not at all.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { START_ERRORS } from '../../contract/errors.ts';
import type { Logger } from '../../log.ts';
import type { JobSummary } from './job.ts';
import { OutputError } from './sink.ts';
import { summaryJson, writeJsonAtomic, type SummaryJsonFacts } from './summary-json.ts';

/**
 * Writes the report next to its final name, then renames it: a reader never sees half a file.
 * `probeOnly` checks that it can be written (at the start of a job), leaving nothing behind.
 */
export function writeReport(path: string, html: string, probeOnly = false): void {
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
export function writeSummaryFile(path: string | undefined, facts: SummaryJsonFacts): boolean {
  if (path === undefined) return true;
  try {
    writeJsonAtomic(path, summaryJson(facts));
    return true;
  } catch (err) {
    process.stderr.write(`addrflow run: ${START_ERRORS.OUTPUT_UNWRITABLE.code}: ${(err as Error).message}\n`);
    return false;
  }
}

export function printSummary(log: Logger, s: JobSummary, checkpointPath: string | undefined): void {
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
