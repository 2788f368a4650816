/**
 * What each engine worker thread costs beside the one shared index (issue 9: a second thread adds
 * ≤ 60 MB at 30M points). The design, not timings:
 *  - openIndex copies nothing: every column is a view of the shared buffer, and the index object
 *    holds no other array beyond a fixed scratch buffer, whatever the index's size;
 *  - the pool's threads run with the young-generation limit of src/pool/worker-limits.ts, and the
 *    limit does bound a thread's new space under an allocation-heavy load (it grew to 128 MiB
 *    without one).
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { IndexBuilder } from '../../src/data/index-builder.ts';
import { openIndex } from '../../src/engine/index/index.ts';
import { EnginePool } from '../../src/pool/engine-pool.ts';
import { validateElement } from '../../src/contract/validate.ts';
import { ENGINE_WORKER_RESOURCE_LIMITS } from '../../src/pool/worker-limits.ts';

/** Typed arrays reachable from `root` (own properties, depth ≤ 3). */
function typedArraysOf(root: object): ArrayBufferView[] {
  const out: ArrayBufferView[] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number) => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (ArrayBuffer.isView(v)) { out.push(v); return; }
    if (depth === 0) return;
    for (const k of Reflect.ownKeys(v)) walk((v as Record<string | symbol, unknown>)[k], depth - 1);
  };
  walk(root, 3);
  return out;
}

describe('per-thread memory', () => {
  it('openIndex views the shared buffer and copies nothing sized by the index', () => {
    const dir = mkdtempSync(join(tmpdir(), 'addrflow-threadmem-'));
    try {
      const b = new IndexBuilder({ tmpDir: dir });
      const s = b.source('t');
      for (let i = 0; i < 300; i++) {
        s.address({ country: 'LI', street: `Gasse ${i}`, housenumber: String(i + 1), postcode: '9490', city: 'Vaduz', district: '', lat: 47.14 + i * 1e-4, lon: 9.52 });
      }
      const bytes = b.build();
      const sab = new SharedArrayBuffer(bytes.byteLength);
      new Uint8Array(sab).set(bytes);
      const index = openIndex(sab);
      expect(index.docCount).toBeGreaterThanOrEqual(300);
      const arrays = typedArraysOf(index);
      const columns = Object.values(index.c);
      for (const col of columns) expect(col.buffer).toBe(sab);
      // anything else is a fixed-size scratch buffer, not a per-thread copy sized by the index
      const own = arrays.filter((a) => a.buffer !== sab);
      expect(own.reduce((n, a) => n + a.byteLength, 0)).toBeLessThanOrEqual(4096);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the pool starts its threads with the young-generation limit', async () => {
    const pool = await EnginePool.create({ threads: 1 });
    try {
      // the Piscina pool is private: its Worker objects report the limits they were started with
      const threads = (pool as unknown as { piscina: { threads: Worker[] } }).piscina.threads;
      expect(threads.length).toBe(1);
      expect(threads[0]!.resourceLimits?.maxYoungGenerationSizeMb).toBe(ENGINE_WORKER_RESOURCE_LIMITS.maxYoungGenerationSizeMb);
      // and the limited thread works: a batch of recipient blocks through it
      const block = { countrycode: 'DE', sendercountrycode: 'DE', street: 'Hauptstraße', housenumber: '1', zip: '10115', city: 'Berlin' };
      const v = validateElement('lines', block);
      if (!v.ok) throw new Error('the block is valid');
      const outcomes = await pool.runValidated('lines', Array.from({ length: 2000 }, () => v));
      expect(outcomes.every((o) => o.ok)).toBe(true);
    } finally {
      await pool.destroy();
    }
  });

  it('the limit bounds a thread\'s new space under a lookup-like allocation load', async () => {
    // ~400 MB of short-lived arrays (a lookup's candidate lists), some kept across a few rounds
    const code = `
      const { parentPort } = require('node:worker_threads');
      const { getHeapSpaceStatistics } = require('node:v8');
      let keep = [];
      for (let r = 0; r < 2000; r++) {
        const a = [];
        for (let i = 0; i < 25000; i++) a.push(i * 2);
        keep.push(a);
        if (keep.length > 3) keep.shift();
      }
      const ns = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      parentPort.postMessage(ns.space_size);`;
    const sizeOf = (resourceLimits?: typeof ENGINE_WORKER_RESOURCE_LIMITS) => new Promise<number>((res, rej) => {
      const w = new Worker(code, { eval: true, ...(resourceLimits ? { resourceLimits } : {}) });
      w.once('message', (n: number) => { void w.terminate(); res(n); });
      w.once('error', rej);
    });
    const limited = await sizeOf(ENGINE_WORKER_RESOURCE_LIMITS);
    expect(limited).toBeLessThanOrEqual(ENGINE_WORKER_RESOURCE_LIMITS.maxYoungGenerationSizeMb * 1048576);
  });
});
