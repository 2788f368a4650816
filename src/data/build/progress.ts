/**
 * Build progress for people: on a terminal one live line (phase, rows, rows/s, ETA), otherwise a
 * log line every 10 s and one per finished phase. Reading phases measure progress in file bytes
 * and report rows read; build phases measure it in rows.
 */
/** Reports build phases; the CLI draws them, tests pass nothing. */
export interface BuildProgress {
  phase(name: string, total?: number): void;
  tick(done: number): void;
}

export const noProgress: BuildProgress = { phase() {}, tick() {} };

export interface ProgressOptions {
  /** Where lines go (stderr by default). */
  write?: (s: string) => void;
  /** Draw a live line (a terminal) instead of log lines. */
  tty?: boolean;
  /** Rows read so far (for reading phases). */
  rows?: () => number;
  intervalMs?: number;
}

export class ProgressReporter implements BuildProgress {
  private name = '';
  private total = 0;
  private done = 0;
  private t0 = 0;
  private rows0 = 0;
  private last = 0;
  private readonly write: (s: string) => void;
  private readonly tty: boolean;
  private rows: () => number;
  private readonly interval: number;
  private byBytes = false;

  constructor(o: ProgressOptions = {}) {
    this.write = o.write ?? ((s) => process.stderr.write(s));
    this.tty = o.tty ?? Boolean(process.stderr.isTTY);
    this.rows = o.rows ?? (() => 0);
    this.interval = o.intervalMs ?? (this.tty ? 250 : 10_000);
  }

  phase(name: string, total = 0): void {
    this.end();
    this.name = name; this.total = total; this.done = 0; this.byBytes = false;
    this.t0 = this.last = performance.now();
    this.rows0 = this.rows();
  }

  /** Where reading phases get their row count (the builder's rows so far). */
  countRows(rows: () => number): void {
    this.rows = rows;
  }

  /** A reading phase: progress in file bytes, speed in rows read. */
  reading(file: string): void {
    this.phase(`read ${file}`);
    this.byBytes = true;
  }

  bytes(done: number, total: number): void {
    this.total = total;
    this.tick(done);
  }

  tick(done: number): void {
    this.done = done;
    const now = performance.now();
    if (now - this.last < this.interval) return;
    this.last = now;
    this.draw(false);
  }

  /** Ends the current phase (prints its final line). */
  end(): void {
    if (!this.name) return;
    if (this.total) this.done = this.total;
    this.draw(true);
    this.name = '';
  }

  line(): string {
    const s = (performance.now() - this.t0) / 1000;
    const rows = this.byBytes ? this.rows() - this.rows0 : this.done;
    const rate = s > 0 ? rows / s : 0;
    const frac = this.total > 0 ? Math.min(1, this.done / this.total) : 0;
    const eta = frac > 0 && frac < 1 ? fmtTime((s / frac) * (1 - frac)) : '';
    return [
      `[${this.name}]`,
      this.total > 0 ? `${(frac * 100).toFixed(0)}%` : '',
      `${fmtCount(rows)} rows`,
      `${fmtCount(rate)} rows/s`,
      `${fmtTime(s)} elapsed`,
      eta ? `ETA ${eta}` : '',
    ].filter(Boolean).join('  ');
  }

  private draw(final: boolean): void {
    if (this.tty) this.write(`\r\x1b[K${this.line()}${final ? '\n' : ''}`);
    else this.write(`${this.line()}${final ? ' (done)' : ''}\n`);
  }
}

export function fmtCount(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(0)}k` : String(Math.round(n));
}

function fmtTime(s: number): string {
  const m = Math.floor(s / 60), r = Math.floor(s % 60);
  return `${m}:${String(r).padStart(2, '0')}`;
}
