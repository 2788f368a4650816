/**
 * What a stream worker does when a partition's batch fails, whatever its Kafka client: nothing is
 * skipped; the batch is tried again after a delay, and the partition is reported once it has
 * failed FAILING_THRESHOLD times in a row (error log, `failing` metric, /healthz 503).
 *
 * - A fencing or stale-member error is transient (another owner, a rebalance): no count, a short
 *   delay chosen by the transport.
 * - A billing-store outage is a pause, like an empty balance, not a failing batch: no count (the
 *   worker stays healthy), logged once per outage, retried every STORE_RETRY_MS; nothing runs
 *   unpaid, the batch waits in Kafka.
 * - Any other failure (broker down, a result the topic refuses…) backs off from 500 ms, doubled per
 *   failure, to MAX_RETRY_DELAY_MS.
 */
import { StoreUnavailableError } from '../../billing/store.ts';
import type { Logger } from '../../log.ts';
import type { WorkerMetrics } from './worker-metrics.ts';

/** Consecutive failures of one partition's batch after which it is reported (error log, /healthz 503). */
export const FAILING_THRESHOLD = 3;
/** Pause before a batch is tried again while the billing store is unreachable. */
const STORE_RETRY_MS = 1000;
/** Back-off between attempts of a failing batch: 500 ms doubled per failure, at most this. */
const MAX_RETRY_DELAY_MS = 30_000;

export class BatchFailures {
  private readonly counts = new Map<number, number>();
  private storeDown = false;

  private readonly log: Logger;
  private readonly metrics: WorkerMetrics;
  private readonly topic: string;

  constructor(log: Logger, metrics: WorkerMetrics, topic: string) {
    this.log = log;
    this.metrics = metrics;
    this.topic = topic;
  }

  /** Partitions whose head batch keeps failing (FAILING_THRESHOLD or more attempts in a row). */
  get failing(): readonly number[] {
    return [...this.counts].filter(([, n]) => n >= FAILING_THRESHOLD).map(([p]) => p);
  }

  /** Records a failed attempt and logs it; returns the delay (ms) before the next attempt. */
  failed(err: unknown, partition: number, firstOffset: string, transient: { is: boolean; delayMs: number }): number {
    const storeDown = err instanceof StoreUnavailableError;
    const counted = !transient.is && !storeDown;
    const failures = transient.is ? 0 : (this.counts.get(partition) ?? 0) + (counted ? 1 : 0);
    if (counted) this.counts.set(partition, failures);
    this.metrics.failing.set({ topic: this.topic, partition: String(partition) }, failures);
    const delay = transient.is ? transient.delayMs : storeDown ? STORE_RETRY_MS : Math.min(MAX_RETRY_DELAY_MS, 500 * 2 ** Math.min(failures - 1, 16));
    if (storeDown) {
      if (!this.storeDown) this.log.error({ err, partition, offset: firstOffset }, 'billing store unreachable: batches wait (nothing is processed) until it is back');
    } else if (failures >= FAILING_THRESHOLD) {
      this.log.error({ err, partition, offset: firstOffset, failures, retryInMs: delay },
        'a batch keeps failing: retried with back-off, nothing skipped; the worker reports unhealthy until it commits');
    } else {
      this.log.warn({ err, partition, offset: firstOffset, fenced: transient.is, failures }, 'batch aborted; it will be processed again');
    }
    this.storeDown ||= storeDown;
    return delay;
  }

  /** A batch of the partition committed: the store is reachable and the partition healthy again. */
  succeeded(partition: number): void {
    if (this.storeDown) {
      this.storeDown = false;
      this.log.warn({ partition }, 'billing store reachable again: processing');
    }
    if (!this.counts.has(partition)) return;
    if ((this.counts.get(partition) ?? 0) >= FAILING_THRESHOLD) this.log.info({ partition }, 'the failing batch committed: healthy again');
    this.counts.delete(partition);
    this.metrics.failing.set({ topic: this.topic, partition: String(partition) }, 0);
  }
}
