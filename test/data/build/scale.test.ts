/**
 * Bounded memory, in CI time: 2M synthetic address points built in a child process whose JS heap
 * is capped at 512 MB (the old builder needed 2.4 GB for 2M points). The rows live in typed
 * columns outside the heap, so the heap stays small whatever the point count. Town names recur
 * (500 names for 5,000 towns 8–11 km apart), so every street group is split by place on the way.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

describe('index build at scale', () => {
  it('builds 2M points under --max-old-space-size=512 with a heap that does not grow with the points', () => {
    const dir = mkdtempSync(join(tmpdir(), 'addrflow-scale-'));
    try {
      const child = fileURLToPath(new URL('./scale-child.ts', import.meta.url));
      const r = spawnSync(process.execPath, ['--max-old-space-size=512', child, '2000000', join(dir, 'out'), dir, '500'], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const s = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { addresses: number; docs: number; heapMax: number; peakTempBytes: number; bytes: number };
      expect(s.addresses).toBe(2_000_000);
      // one street document per (street, town), though a (street, town name) pair is in 10 towns
      const streetTown = new Set<number>();
      for (let i = 0; i < 2_000_000; i++) streetTown.add(((i >>> 3) % 4000) * 5000 + (i % 5000));
      expect(s.docs).toBe(streetTown.size);
      expect(s.heapMax).toBeLessThan(200 * 1024 * 1024);
      // the six address columns were spilled (no street geometry: no navigation columns) to the temporary directory
      expect(s.peakTempBytes).toBe(2_000_000 * 4 * 6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
