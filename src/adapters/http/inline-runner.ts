/**
 * How `serve` runs the engine: a single record on the event loop itself, anything larger on the
 * engine pool's threads.
 *
 * A recipient block costs the engine about 3 µs. Sending it to a pool thread and back costs far
 * more: two structured clones, two thread wake-ups and, on a machine with as many busy threads as
 * cores, a context switch each way. So a single record runs here, over the same shared index the
 * threads read (a view over the SharedArrayBuffer, no copy), with the same per-element isolation
 * (`runValidatedTask`: an engine defect is that element's 500 outcome). A batch goes to the pool,
 * so that 5,000 records never hold the event loop; so does a single record of an op whose records
 * have cost more than INLINE_BUDGET_US on average, about the hop's own cost: a lookup (150–300 µs
 * on the embedded index) is better run beside the event loop than on it, as measured by
 * `npm run bench -- http` (docs/performance.md).
 *
 * `ADDRFLOW_HTTP_INLINE=0` sends single records to the pool as well (for comparison).
 */
import type { Op } from '../../contract/params.ts';
import type { ValidElement } from '../../contract/validate.ts';
import type { EngineContext, Outcome } from '../../engine/process.ts';
import { openIndex } from '../../engine/index/index.ts';
import { runValidatedTask } from '../../pool/run-validated.ts';
import type { ElementRunner } from './api.ts';

/** The largest request that runs on the event loop. */
export const INLINE_MAX_ELEMENTS = 1;
/**
 * A single record of an op whose engine time on the event loop averages more than this (µs) goes
 * to the pool instead: its engine costs more than the hop, and the pool's threads run it beside the
 * event loop. Every PROBE_EVERY-th such record still runs here, to notice when the average comes
 * down (an op that is cheap on this index after all).
 */
export const INLINE_BUDGET_US = 50;
const PROBE_EVERY = 64;

/**
 * The running mean of an op's engine time on the event loop (µs, exponentially weighted, from 0).
 * A sample counts at most 4 × the budget, so that one cold first call (lazy structures, the JIT)
 * does not send the op to the pool; three or four slow calls in a row do.
 */
export class EngineTime {
  meanUs = 0;
  private skipped = 0;

  /** Whether the next single record should run on the event loop. */
  inline(): boolean {
    if (this.meanUs <= INLINE_BUDGET_US) return true;
    if (++this.skipped < PROBE_EVERY) return false;
    this.skipped = 0;
    return true;
  }

  add(us: number): void {
    this.meanUs = this.meanUs * 0.9 + Math.min(us, 4 * INLINE_BUDGET_US) * 0.1;
  }
}

export class InlineSingleRunner implements ElementRunner {
  private readonly state: { ctx: EngineContext };
  private readonly pool: ElementRunner;
  private readonly time: Record<Op, EngineTime> = { search: new EngineTime(), lines: new EngineTime() };

  constructor(pool: ElementRunner, indexBuffer: SharedArrayBuffer | undefined) {
    this.pool = pool;
    this.state = { ctx: indexBuffer ? { index: openIndex(indexBuffer) } : {} };
  }

  runValidated(op: Op, elements: ValidElement[]): Promise<Outcome[]> {
    const time = this.time[op];
    if (elements.length > INLINE_MAX_ELEMENTS || !time.inline()) return this.pool.runValidated(op, elements);
    const t0 = performance.now();
    const outcomes = runValidatedTask(this.state, { kind: 'validated', op, elements }).outcomes;
    time.add((performance.now() - t0) * 1000);
    return Promise.resolve(outcomes);
  }

  /** The mean engine time of a single record of `op` on the event loop, in µs (tests, metrics). */
  meanUs(op: Op): number {
    return this.time[op].meanUs;
  }
}

/** The runner `serve` uses: inline for single records unless ADDRFLOW_HTTP_INLINE=0. */
export function httpRunner(pool: ElementRunner, indexBuffer: SharedArrayBuffer | undefined): ElementRunner {
  return process.env.ADDRFLOW_HTTP_INLINE === '0' ? pool : new InlineSingleRunner(pool, indexBuffer);
}
