/**
 * The needed-node-id collector of the OSM reader: sorted, de-duplicated output on a
 * SharedArrayBuffer, the same whether its chunks stay in memory or are spilled to disk as runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SortedIdCollector } from '../../../src/data/readers/osm-pbf/sorted-ids.ts';
import { mulberry32 } from '../../../eval/support/prng.ts';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'addrflow-ids-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function reference(ids: number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

describe('SortedIdCollector', () => {
  const rnd = mulberry32(9);
  // OSM-like ids (beyond 2^32), with many repeats (nodes shared by ways)
  const ids = Array.from({ length: 50_000 }, () => 10_000_000_000 + Math.floor(rnd() * 30_000));

  it('in memory: sorted, unique, on a SharedArrayBuffer', () => {
    const c = new SortedIdCollector({ chunkSize: 4096 });
    for (let i = 0; i < ids.length; i += 1000) c.add(ids.slice(i, i + 1000));
    const out = c.finish();
    expect(out.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Array.from(out)).toEqual(reference(ids));
    expect(c.spilledRuns).toBe(0);
  });

  it('spilled to disk past its memory budget: the same ids, and no run file left', () => {
    const sdir = mkdtempSync(join(dir, 'spill-'));
    const c = new SortedIdCollector({ chunkSize: 1000, memoryBytes: 16_000, spillDir: sdir });
    c.add(ids);
    expect(c.spilledRuns).toBeGreaterThan(10);
    expect(readdirSync(sdir).length).toBe(c.spilledRuns);
    const out = c.finish();
    expect(Array.from(out)).toEqual(reference(ids));
    expect(readdirSync(sdir)).toEqual([]);
  });

  it('empty', () => {
    expect(new SortedIdCollector().finish().length).toBe(0);
  });
});
