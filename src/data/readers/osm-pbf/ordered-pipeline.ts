/**
 * Keeps up to `limit` asynchronous jobs in flight and hands their results to their handlers in
 * submission order (file order), so that a reader's output does not depend on thread timing and
 * its memory is bounded by `limit` blobs.
 */
export class OrderedPipeline {
  private readonly limit: number;
  private readonly queue: { job: Promise<unknown>; handle: (r: unknown) => void }[] = [];

  constructor(limit: number) {
    this.limit = limit;
  }

  async push<T>(job: Promise<T>, handle: (r: T) => void): Promise<void> {
    job.catch(() => {}); // awaited below, in order; this only keeps an early failure from being "unhandled"
    this.queue.push({ job, handle: handle as (r: unknown) => void });
    while (this.queue.length > this.limit) await this.shift();
  }

  private async shift(): Promise<void> {
    const head = this.queue.shift()!;
    head.handle(await head.job);
  }

  async drain(): Promise<void> {
    while (this.queue.length > 0) await this.shift();
  }
}
