/**
 * A fixed set of worker threads running blob-worker.ts. `submit` sends one blob to the least busy
 * worker (its buffer transferred, not copied) and resolves with that worker's result; `broadcast`
 * gives every worker the next pass's context. The reader keeps a bounded number of blobs in flight
 * and consumes results in file order, so memory stays bounded and the output is deterministic.
 */
import { Worker } from 'node:worker_threads';
import { OsmPbfError, type OsmPbfErrorCode } from './errors.ts';
import type { FromWorker, PassContext, ToWorker } from './worker-protocol.ts';

interface Pending { resolve: (v: unknown) => void; reject: (e: Error) => void }

export class BlobWorkerPool {
  private readonly workers: Worker[] = [];
  private readonly busy: number[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;
  private closing = false;

  /**
   * @param heapMb each worker's old-generation heap limit: a worker holds a few decoded blocks
   *   (a blob is at most 32 MiB inflated), never the file, so a fixed limit bounds the reader.
   * @param youngMb young generation: decoding allocates many short-lived arrays; a larger nursery
   *   means fewer scavenges (measured: a few % less CPU and less RSS than the default).
   */
  constructor(threads: number, heapMb = 384, youngMb = 48) {
    for (let i = 0; i < threads; i++) {
      const w = new Worker(new URL('./blob-worker.ts', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: youngMb } });
      const idx = i;
      w.on('message', (m: FromWorker) => {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        this.busy[idx]!--;
        if (m.ok) p.resolve(m.result);
        else p.reject(m.code ? new OsmPbfError(m.code as OsmPbfErrorCode, m.message) : new Error(m.message));
      });
      w.on('error', (e) => this.fail(e));
      w.on('exit', (code) => { if (!this.closing) this.fail(new Error(`OSM PBF worker thread exited with code ${code}`)); });
      this.workers.push(w);
      this.busy.push(0);
    }
  }

  get size(): number { return this.workers.length; }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  private send(idx: number, msg: ToWorker, transfer: ArrayBuffer[]): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.set(msg.id, { resolve, reject });
      this.busy[idx]!++;
      this.workers[idx]!.postMessage(msg, transfer);
    });
  }

  submit<T>(blobType: string, bytes: Uint8Array): Promise<T> {
    let idx = 0;
    for (let i = 1; i < this.busy.length; i++) if (this.busy[i]! < this.busy[idx]!) idx = i;
    return this.send(idx, { op: 'blob', id: this.nextId++, blobType, bytes }, [bytes.buffer as ArrayBuffer]) as Promise<T>;
  }

  async broadcast(ctx: PassContext): Promise<void> {
    await Promise.all(this.workers.map((_, i) => this.send(i, { op: 'context', id: this.nextId++, ctx }, [])));
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
