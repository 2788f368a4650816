/**
 * Single records that arrive while every engine thread is busy travel to the pool together.
 *
 * A lookup costs the engine 100–300 µs on the embedded index, but each trip of a single record to a
 * pool thread and back costs the event loop a structured clone each way, a thread wake-up each way
 * and, on a machine with as many busy threads as cores, a context switch: under load that hop cost
 * the main thread more than the lookup cost the engine. So this runner keeps at most one task of
 * single records per engine thread in flight; a single record that comes while they are all out
 * waits for the first to come back, with every other single record of its operation that came
 * meanwhile, and they go as one task (the pool's per-element isolation holds: one record's defect is
 * its own 500 outcome, src/pool/run-validated.ts).
 *
 * No timer: a record is sent at once whenever a thread is free, so an idle server adds no latency,
 * and a waiting record leaves no later than it would have left the pool's own queue (the pool runs
 * one task per thread at a time). The group-commit pattern of src/billing/group-commit.ts, applied
 * to the engine hop.
 *
 * Batches (more than one element) go to the pool as they are: they are the caller's own grouping.
 */
import type { Op } from '../../contract/params.ts';
import type { ValidElement } from '../../contract/validate.ts';
import type { Outcome } from '../../engine/process.ts';
import { SPLIT_MIN_ELEMENTS } from '../../pool/split.ts';
import type { ElementRunner } from './api.ts';

/** A single record waiting for a free thread, with its caller's promise. */
interface Waiting {
  element: ValidElement;
  resolve: (o: Outcome) => void;
  reject: (err: unknown) => void;
}

/**
 * At most this many single records per task: few lookups for one answer to wait for, and below
 * the pool's SPLIT_MIN_ELEMENTS, so that a group stays one task on one thread.
 */
export const MAX_SINGLES_PER_TASK = Math.min(32, SPLIT_MIN_ELEMENTS - 1);

export class CoalescingSingleRunner implements ElementRunner {
  private readonly pool: ElementRunner;
  private readonly slots: number;
  private inFlight = 0;
  private readonly waiting = new Map<Op, Waiting[]>();
  /** Hears each task's size (`/metrics`: addrflow_engine_single_records_per_task). */
  onSinglesTask: ((records: number) => void) | undefined;

  /** `slots`: the tasks of single records in flight at once, one per engine thread. */
  constructor(pool: ElementRunner, slots: number) {
    this.pool = pool;
    this.slots = Math.max(1, slots);
  }

  runValidated(op: Op, elements: ValidElement[]): Promise<Outcome[]> {
    if (elements.length !== 1) return this.pool.runValidated(op, elements);
    return new Promise<Outcome>((resolve, reject) => {
      let queue = this.waiting.get(op);
      if (!queue) this.waiting.set(op, (queue = []));
      queue.push({ element: elements[0]!, resolve, reject });
      this.dispatch();
    }).then((o) => [o]);
  }

  /** Sends waiting records, one task per free slot, the oldest operation's records first. */
  private dispatch(): void {
    while (this.inFlight < this.slots) {
      const next = this.oldestQueue();
      if (!next) return;
      const [op, queue] = next;
      const group = queue.splice(0, MAX_SINGLES_PER_TASK);
      if (queue.length === 0) this.waiting.delete(op);
      this.send(op, group);
    }
  }

  /** Map iteration follows insertion: the first queue is the one that has waited longest. */
  private oldestQueue(): [Op, Waiting[]] | undefined {
    for (const entry of this.waiting) return entry;
    return undefined;
  }

  private send(op: Op, group: Waiting[]): void {
    this.inFlight++;
    this.onSinglesTask?.(group.length);
    this.pool.runValidated(op, group.map((w) => w.element)).then(
      (outcomes) => group.forEach((w, i) => w.resolve(outcomes[i]!)),
      (err) => group.forEach((w) => w.reject(err)),
    ).finally(() => {
      this.inFlight--;
      this.dispatch();
    });
  }
}
