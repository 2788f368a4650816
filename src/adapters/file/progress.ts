/**
 * Progress of a file job: a one-line bar on a terminal (stderr), periodic pino lines otherwise.
 */
import type { Logger } from '../../log.ts';

export interface ProgressState {
  records: number;
  errors: number;
  /** Fraction of the input read, 0..1, when the input size is known. */
  fraction: number | undefined;
}

export interface ProgressReporter {
  update(s: ProgressState): void;
  done(): void;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function rateAndEta(s: ProgressState, startedAt: number, now: number) {
  const elapsed = now - startedAt;
  const rate = elapsed > 0 ? (s.records * 1000) / elapsed : 0;
  const eta = s.fraction && s.fraction > 0.001 ? (elapsed * (1 - s.fraction)) / s.fraction : NaN;
  return { rate, eta, elapsed };
}

export function createProgress(opts: { tty: boolean; log: Logger; intervalMs?: number; now?: () => number }): ProgressReporter {
  const now = opts.now ?? (() => performance.now());
  const startedAt = now();
  const interval = opts.intervalMs ?? (opts.tty ? 200 : 10_000);
  // A bar draws at once; log lines start after one interval, so short jobs log only their summary.
  let last = opts.tty ? -Infinity : startedAt;
  let drawn = false;
  return {
    update(s) {
      const t = now();
      if (t - last < interval) return;
      last = t;
      const { rate, eta } = rateAndEta(s, startedAt, t);
      if (opts.tty) {
        const pct = s.fraction === undefined ? '' : `${(s.fraction * 100).toFixed(1).padStart(5)}% `;
        const width = 24;
        const filled = s.fraction === undefined ? 0 : Math.round(s.fraction * width);
        const bar = s.fraction === undefined ? '' : `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] `;
        process.stderr.write(
          `\r${bar}${pct}${s.records.toLocaleString('en')} records | ${Math.round(rate).toLocaleString('en')} rec/s | ETA ${formatDuration(eta)} | errors ${s.errors.toLocaleString('en')}\x1b[K`,
        );
        drawn = true;
      } else {
        opts.log.info({ records: s.records, recordsPerSecond: Math.round(rate), errors: s.errors, percent: s.fraction === undefined ? undefined : Math.round(s.fraction * 1000) / 10, etaSeconds: Number.isFinite(eta) ? Math.round(eta / 1000) : undefined }, 'progress');
      }
    },
    done() {
      if (drawn) process.stderr.write('\n');
    },
  };
}
