import { describe, expect, it } from 'vitest';
import { ProgressReporter } from '../../../src/data/build/progress.ts';

describe('build progress', () => {
  it('off a terminal: one log line per finished phase (and every interval), with rows, rows/s and ETA', () => {
    const out: string[] = [];
    let rows = 0;
    const p = new ProgressReporter({ tty: false, write: (s) => out.push(s), rows: () => rows, intervalMs: 0 });
    p.reading('fr.csv');
    rows = 500;
    p.bytes(50, 100);
    expect(out.at(-1)).toMatch(/^\[read fr\.csv\]  50%  500 rows  [\d.]+[kM]? rows\/s  0:00 elapsed  ETA 0:0\d\n$/);
    p.phase('street documents', 10);
    expect(out.at(-1)).toMatch(/^\[read fr\.csv\]  100%  500 rows .*\(done\)\n$/);
    p.tick(4);
    p.end();
    expect(out.at(-1)).toMatch(/^\[street documents\]  100%  10 rows .*\(done\)\n$/);
  });
  it('on a terminal: one live line redrawn in place, ended by a newline', () => {
    const out: string[] = [];
    const p = new ProgressReporter({ tty: true, write: (s) => out.push(s), intervalMs: 0 });
    p.phase('tokens', 4);
    p.tick(1);
    p.tick(2);
    p.end();
    expect(out.slice(0, 2).every((s) => s.startsWith('\r\x1b[K[tokens]') && !s.endsWith('\n'))).toBe(true);
    expect(out.at(-1)).toMatch(/^\r\x1b\[K\[tokens\]  100%.*\n$/);
  });
});
