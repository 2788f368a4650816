/**
 * EnginePool.destroy() terminates a thread only once it has loaded the worker module: a thread
 * terminated while Node 24 loads its ES module (a require of it, as Piscina's worker does) aborts
 * the whole process with an assertion in ModuleWrap::CreateRequiredModuleFacade; seen once in CI
 * at the end of a 3-row file job whose second thread had never run a task.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EnginePool } from '../../src/pool/engine-pool.ts';

afterEach(() => vi.restoreAllMocks());

describe('EnginePool.destroy', () => {
  it('right after the pool is made, terminates no thread before its module has loaded', async () => {
    // a thread's first message on the parent port is Piscina's READY, posted once its module has loaded
    const spoke = new WeakSet<Worker>();
    const emit = Worker.prototype.emit;
    vi.spyOn(Worker.prototype, 'emit').mockImplementation(function (this: Worker, event: string | symbol, ...args: unknown[]) {
      if (event === 'message') spoke.add(this);
      return emit.call(this, event, ...args);
    });
    const terminated: boolean[] = [];
    const terminate = Worker.prototype.terminate;
    vi.spyOn(Worker.prototype, 'terminate').mockImplementation(function (this: Worker) {
      terminated.push(spoke.has(this));
      return terminate.call(this);
    });
    const pool = await EnginePool.create({ threads: 2 });
    await pool.destroy();
    expect(terminated).toEqual([true, true]);
  }, 60_000);

  it('after a task, with a thread that never ran one, ends as quickly', async () => {
    const pool = await EnginePool.create({ threads: 2 });
    await pool.warmUp([], 0);
    const t0 = performance.now();
    await pool.destroy();
    expect(performance.now() - t0).toBeLessThan(5_000);
  }, 60_000);
});
