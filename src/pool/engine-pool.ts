/**
 * The one worker pool every entrance uses (HTTP, file jobs, Kafka). It runs tasks on Piscina
 * worker threads, so that a batch of 5,000 never blocks the event loop, and it shares one copy of
 * the address index between all threads (a SharedArrayBuffer in workerData).
 *
 * The pool is threads only: it knows how to split a batch of validated elements across its
 * threads (src/pool/split.ts) and otherwise carries tasks it does not look into. What a task kind
 * does in a worker is decided by the worker's composition root, workers/engine.ts, which the pool
 * names by URL (as Piscina's worker file, and for `threads: 0` as an in-process module) and never
 * imports statically: the pool depends on no adapter.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Op } from '../contract/params.ts';
import type { Outcome } from '../engine/process.ts';
import type { ValidElement } from '../contract/validate.ts';
import { splitRanges } from './split.ts';
import { ENGINE_WORKER_RESOURCE_LIMITS } from './worker-limits.ts';
import type { ElementsResult, PoolTask, ValidatedTask, WarmUpTask, WorkerState } from './tasks.ts';
import type { WarmedUp } from './warm-up.ts';

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
/**
 * Piscina is given the worker file as a path: it turns a `file:` URL into one on every task (a URL
 * parse and a path normalisation per task, on the event loop).
 */
const WORKER_PATH = fileURLToPath(WORKER_FILE);

/** What the worker file offers a pool that runs in-process (`threads: 0`). */
interface WorkerModule {
  createWorkerState(indexBuffer: SharedArrayBuffer | undefined): WorkerState;
  runTask(state: WorkerState, task: PoolTask): unknown;
}

/** How long destroy() waits for the threads' modules to load before it terminates them all the same. */
const LOADED_WAIT_MS = 5_000;

/**
 * Settles once `w` has loaded the worker module (Piscina's worker posts its first message on the
 * parent port, READY, after its handler's module has loaded, or failed to) or has exited.
 */
function moduleLoaded(w: Worker): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      w.off('message', done);
      w.off('exit', done);
      resolve();
    };
    w.on('message', done);
    w.on('exit', done);
  });
}

export class EnginePool {
  readonly threads: number;
  private readonly piscina: Piscina | undefined;
  private readonly inProcess: { state: WorkerState; worker: WorkerModule } | undefined;
  /** Per thread started with the pool: its module has loaded (moduleLoaded). */
  private readonly loaded: Promise<void>[] = [];

  private constructor(opts: EnginePoolOptions, inProcess?: { state: WorkerState; worker: WorkerModule }) {
    this.threads = opts.threads ?? availableParallelism();
    if (this.threads === 0) {
      this.inProcess = inProcess;
    } else {
      this.piscina = new Piscina({
        filename: WORKER_PATH,
        minThreads: this.threads,
        maxThreads: this.threads,
        maxQueue: opts.maxQueue ?? Number.POSITIVE_INFINITY,
        workerData: { indexBuffer: opts.indexBuffer },
        resourceLimits: ENGINE_WORKER_RESOURCE_LIMITS,
        idleTimeout: 60_000,
        // no run/wait-time histograms per task: nothing reads them
        recordTiming: false,
      });
      // (Piscina starts its minThreads in its constructor)
      for (const w of this.piscina.threads) this.loaded.push(moduleLoaded(w));
    }
  }

  static async create(opts: EnginePoolOptions = {}): Promise<EnginePool> {
    if (opts.threads === 0) {
      const worker = (await import(WORKER_FILE)) as WorkerModule;
      return new EnginePool(opts, { state: worker.createWorkerState(opts.indexBuffer), worker });
    }
    return new EnginePool(opts);
  }

  /**
   * Elements already validated by the entrance (validated once), to outcomes, in order. A large
   * batch is split across the threads (src/pool/split.ts), so that every thread gets a share.
   */
  async runValidated(op: Op, elements: ValidElement[]): Promise<Outcome[]> {
    const ranges = splitRanges(elements.length, this.threads);
    const one = async (from: number, to: number): Promise<Outcome[]> => {
      const task: ValidatedTask = { kind: 'validated', op, elements: from === 0 && to === elements.length ? elements : elements.slice(from, to) };
      return (await this.run<ElementsResult>(task)).outcomes;
    };
    if (ranges.length === 1) return one(0, elements.length);
    return (await Promise.all(ranges.map(([from, to]) => one(from, to)))).flat();
  }

  /**
   * Every thread runs made-up records of `ops` for `ms` (warm-up.ts), discarding them: one task
   * per thread, sent together, so that each idle thread takes one. Answers the records run.
   */
  async warmUp(ops: Op[], ms: number): Promise<WarmedUp> {
    const task: WarmUpTask = { kind: 'warm-up', ops, ms };
    const done = await Promise.all(Array.from({ length: Math.max(1, this.threads) }, () => this.run<WarmedUp>(task)));
    const failed = done.find((d) => d.failed)?.failed;
    return { records: done.reduce((n, d) => n + d.records, 0), ms: Math.max(...done.map((d) => d.ms)), ...(failed ? { failed } : {}) };
  }

  /**
   * Any task the worker's composition root knows (workers/engine.ts), answered with its result.
   * The buffers in `transferList` are moved to the worker: the caller must not use them after.
   */
  run<R>(task: PoolTask, transferList?: ArrayBuffer[]): Promise<R> {
    if (this.inProcess) {
      try {
        return Promise.resolve(this.inProcess.worker.runTask(this.inProcess.state, task) as R);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return this.piscina!.run(task, transferList ? { transferList } : {}) as Promise<R>;
  }

  /**
   * Ends the threads, each once its module has loaded (at most LOADED_WAIT_MS): a thread terminated
   * while Node loads its module (a require of an ES module) aborts the whole process on Node 24
   * (`Assertion failed: facade->InstantiateModule(…)` in ModuleWrap::CreateRequiredModuleFacade;
   * seen once in CI, at the end of a 3-row file job whose second thread had never run a task).
   */
  async destroy(): Promise<void> {
    if (!this.piscina) return;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => { timer = setTimeout(resolve, LOADED_WAIT_MS); });
    await Promise.race([Promise.all(this.loaded), waited]);
    clearTimeout(timer);
    await this.piscina.destroy();
  }
}
