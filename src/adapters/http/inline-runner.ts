/**
 * How `serve` runs the engine: a single recipient block on the event loop itself, anything else on
 * the engine pool's threads.
 *
 * A recipient block costs the engine about 3 µs and reads no index. Sending it to a pool thread
 * and back costs far more: two structured clones, two thread wake-ups and, on a machine with as
 * many busy threads as cores, a context switch each way. So a single `lines` record runs here,
 * with the same per-element isolation as on a thread (`runValidatedTask`: an engine defect is that
 * element's 500 outcome). A lookup costs 150–300 µs on the embedded index (more on a national
 * one): more than the hop, and better run beside the event loop than on it; measured both ways
 * with `npm run bench -- http` (docs/performance.md). On SQLite a single lookup does not come here
 * at all: it runs on the store's thread with its charge (single-work.ts; api.ts asks `runsHere`
 * first). A batch goes to the pool, so that 5,000 records never hold the event loop.
 *
 * `ADDRFLOW_HTTP_INLINE=0` sends every single record to the pool as well (for comparison).
 */
import type { Op } from '../../contract/params.ts';
import type { ValidElement } from '../../contract/validate.ts';
import type { Outcome } from '../../engine/process.ts';
import { runValidatedTask } from '../../pool/run-validated.ts';
import type { ElementRunner } from './api.ts';
import { CoalescingSingleRunner } from './coalescing-runner.ts';

/** The requests that run on the event loop: one recipient block. */
export function runsInline(op: Op, elements: readonly ValidElement[]): boolean {
  return op === 'lines' && elements.length === 1;
}

export class InlineSingleRunner implements ElementRunner {
  private readonly pool: ElementRunner;
  /** The engine context of a recipient block: it reads no index. */
  private readonly state = { ctx: {} };

  constructor(pool: ElementRunner) {
    this.pool = pool;
  }

  set onSinglesTask(listener: ((records: number) => void) | undefined) {
    this.pool.onSinglesTask = listener;
  }

  runsHere(op: Op, elements: readonly ValidElement[]): boolean {
    return runsInline(op, elements);
  }

  runValidated(op: Op, elements: ValidElement[]): Promise<Outcome[]> {
    if (!runsInline(op, elements)) return this.pool.runValidated(op, elements);
    return Promise.resolve(runValidatedTask(this.state, { kind: 'validated', op, elements }).outcomes);
  }
}

/**
 * The runner `serve` uses: a single recipient block inline unless ADDRFLOW_HTTP_INLINE=0; other
 * single records to the pool in groups while its threads are busy (coalescing-runner.ts) unless
 * ADDRFLOW_HTTP_COALESCE=0; batches to the pool as they are.
 */
export function httpRunner(pool: ElementRunner & { readonly threads: number }): ElementRunner {
  const toPool = process.env.ADDRFLOW_HTTP_COALESCE === '0' ? pool : new CoalescingSingleRunner(pool, pool.threads);
  return process.env.ADDRFLOW_HTTP_INLINE === '0' ? toPool : new InlineSingleRunner(toPool);
}
