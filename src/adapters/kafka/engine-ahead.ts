/**
 * The engine threads one slice ahead of the Kafka half (issue 20). A partition's slices run one
 * after another (one transactional producer per partition), and a slice's time is its engine work
 * (decode, validate, run, encode: results-task.ts) then its billing and Kafka round trips. The
 * engine is pure, so the NEXT slice's engine work may start as soon as this slice's results are
 * in, while this slice is held, settled, produced and committed: nothing is shown to anyone,
 * charged or committed before that slice's own turn (runSlice holds, settles and commits only then).
 *
 * The next slice is the full slice (sliceSize records) right after the current one, when the queue
 * holds one. When its turn comes the worker takes the results made ahead only if the queue still
 * starts with the same message (the current slice committed whole). Otherwise — a prefix
 * committed (credits ran out), a failure, a rebalance that dropped records — they are dropped and
 * the slice's results made afresh from the queue's head.
 */
import type { PortMessage } from './client-port.ts';
import type { SliceResults } from './results-task.ts';
import { sliceResults, type SliceOptions } from './slice.ts';

interface Started {
  part: PortMessage[];
  results: Promise<SliceResults>;
}

/** One per partition's drain loop. */
export class EngineAhead {
  private readonly o: SliceOptions;
  private readonly size: number;
  private next: Started | undefined;

  constructor(o: SliceOptions, sliceSize: number) {
    this.o = o;
    this.size = sliceSize;
  }

  /**
   * The slice at the head of `queue()` (at most sliceSize records) and its results: those
   * started ahead when they start at the same message, else started now. Once they are in, the
   * results of the slice after it start (if `queue()` still starts with this slice).
   */
  take(queue: () => readonly PortMessage[] | undefined): Started {
    const messages = queue() ?? [];
    const ahead = this.next;
    this.next = undefined;
    let s: Started;
    if (ahead && ahead.part[0] === messages[0]) s = ahead;
    else {
      const part = messages.slice(0, this.size);
      s = { part, results: sliceResults(this.o, part) };
    }
    s.results.then(() => this.start(queue, s.part), () => {});
    return s;
  }

  private start(queue: () => readonly PortMessage[] | undefined, current: readonly PortMessage[]): void {
    const messages = queue();
    // only a full slice: a partial one would be taken as it is, and slices would shrink while the
    // consumer is still filling the queue (more, smaller transactions)
    if (!messages || messages[0] !== current[0] || messages.length < current.length + this.size) return;
    const part = messages.slice(current.length, current.length + this.size);
    const results = sliceResults(this.o, part);
    results.catch(() => {}); // a failure is seen (and reported) when its slice takes it, or never
    this.next = { part, results };
  }
}
