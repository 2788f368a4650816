/**
 * The one worker pool every entrance uses (HTTP, file jobs, Kafka). It runs batches of records on
 * Piscina worker threads, so that a batch of 5,000 never blocks the event loop, and it shares one
 * copy of the address index between all threads (a SharedArrayBuffer in workerData).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Op } from '../contract/params.ts';
import type { Outcome } from '../engine/process.ts';
import type { ValidElement } from '../contract/validate.ts';
import { runTask, type WorkerState } from './run-task.ts';
import { ENGINE_WORKER_RESOURCE_LIMITS } from './worker-limits.ts';
import type { ElementsResult, EngineTask, RawResult, RawTask } from './tasks.ts';

export interface EnginePoolOptions {
  /** Worker threads. 0 runs in-process on the calling thread (tests, tiny jobs). Default: cores. */
  threads?: number;
  /** The address index, shared by all threads. Needed only for `search`. */
  indexBuffer?: SharedArrayBuffer;
  /**
   * Tasks that may wait for a thread; beyond it `run*` rejects. Default: unbounded, because the
   * entrances bound their own in-flight work (file jobs keep a window of batches, HTTP has a
   * body-size limit and a batch cap).
   */
  maxQueue?: number;
}

const WORKER_FILE = new URL('../../workers/engine.ts', import.meta.url).href;

export class EnginePool {
  readonly threads: number;
  private readonly piscina: Piscina | undefined;
  private readonly inProcess: WorkerState | undefined;

  private constructor(opts: EnginePoolOptions, inProcess?: WorkerState) {
    this.threads = opts.threads ?? availableParallelism();
    if (this.threads === 0) {
      this.inProcess = inProcess;
    } else {
      this.piscina = new Piscina({
        filename: WORKER_FILE,
        minThreads: this.threads,
        maxThreads: this.threads,
        maxQueue: opts.maxQueue ?? Number.POSITIVE_INFINITY,
        workerData: { indexBuffer: opts.indexBuffer },
        resourceLimits: ENGINE_WORKER_RESOURCE_LIMITS,
        idleTimeout: 60_000,
      });
    }
  }

  static async create(opts: EnginePoolOptions = {}): Promise<EnginePool> {
    if (opts.threads === 0) {
      const ctx = opts.indexBuffer
        ? { index: (await import('../engine/index/index.ts')).openIndex(opts.indexBuffer) }
        : {};
      return new EnginePool(opts, { ctx });
    }
    return new EnginePool(opts);
  }

  /** Parsed request elements (an HTTP body, a batch array) to outcome objects, in order. */
  async runElements(op: Op, elements: unknown[]): Promise<Outcome[]> {
    const r = (await this.exec({ kind: 'elements', op, elements })) as ElementsResult;
    return r.outcomes;
  }

  /** Elements already validated by the entrance (validated once), to outcomes, in order. */
  async runValidated(op: Op, elements: ValidElement[]): Promise<Outcome[]> {
    const r = (await this.exec({ kind: 'validated', op, elements })) as ElementsResult;
    return r.outcomes;
  }

  /**
   * Raw records (file lines or array elements, as bytes) to finished NDJSON bytes plus per-record
   * summaries, in order. The batch's buffers are transferred to the worker: do not use them after.
   */
  async runRaw(op: Op, batch: Omit<RawTask, 'kind' | 'op'>): Promise<RawResult> {
    const task: RawTask = { kind: 'raw', op, ...batch };
    return (await this.exec(task, [batch.bytes.buffer as ArrayBuffer, batch.bounds.buffer as ArrayBuffer])) as RawResult;
  }

  private exec(task: EngineTask, transferList?: ArrayBuffer[]): Promise<ElementsResult | RawResult> {
    if (this.inProcess) {
      try {
        return Promise.resolve(runTask(this.inProcess, task));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return this.piscina!.run(task, transferList ? { transferList } : {});
  }

  async destroy(): Promise<void> {
    await this.piscina?.destroy();
  }
}
