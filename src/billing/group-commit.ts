/**
 * Group commit of the money steps (reserve, settle, release, charge) of concurrent holders: steps that
 * wait while a commit is running go to the store together, in ONE transaction
 * (`BillingStore.batch`), as soon as that commit returns. There is no timer and no window:
 *
 * - an idle store commits a step at once (after the current turn of the event loop, so that the
 *   steps of requests answered in the same turn share it);
 * - under load, every step that arrived during a commit rides on the next one, so the number of
 *   commits per second stays near the store's commit rate while the requests per commit grow.
 *
 * Each step is answered exactly as its own store method would answer it, in the order the steps
 * were submitted; a reserve sees every step before it in its batch (the balance net of every
 * pending reservation is decided by the store, across processes). If a batch throws (one step's
 * failure rolls the whole transaction back), its steps are run again one by one, each in its own
 * transaction, so that only the failing step fails. A caller is answered only after its step
 * has committed.
 *
 * A charge may carry work (`submitAfterWork`, store.ts StepWork: an HTTP single lookup) that the
 * store's thread runs just before the batch's transaction; it rides in the batch like any step,
 * and a batch run again step by step runs its work again (the work is pure).
 */
import { StoreUnavailableError, type BillingStore, type MoneyStep, type MoneyStepResult, type StepWork, type WorkedCharge } from './store.ts';

interface Waiting {
  step: MoneyStep;
  /** Work the store's thread runs before the step commits (a charge's; store.ts StepWork). */
  work: StepWork | undefined;
  resolve: (v: MoneyStepResult | WorkedCharge) => void;
  reject: (e: unknown) => void;
}

export class GroupCommit {
  private readonly store: BillingStore;
  private queue: Waiting[] = [];
  private running = false;
  /** Called with the number of steps of every committed batch (metrics). */
  onBatch: ((steps: number) => void) | undefined;
  /** Batches committed and steps in them, since the start. */
  readonly totals = { batches: 0, steps: 0 };

  constructor(store: BillingStore) {
    this.store = store;
  }

  /** Runs `step` in the next group commit; resolves once it has committed. */
  submit(step: MoneyStep): Promise<MoneyStepResult> {
    return this.enqueue(step, undefined) as Promise<MoneyStepResult>;
  }

  /** A charge whose work the store's thread runs first (only where `store.runsWork`), in the next group commit. */
  submitAfterWork(step: Extract<MoneyStep, { kind: 'charge' }>, work: StepWork): Promise<WorkedCharge> {
    return this.enqueue(step, work) as Promise<WorkedCharge>;
  }

  private enqueue(step: MoneyStep, work: StepWork | undefined): Promise<MoneyStepResult | WorkedCharge> {
    return new Promise((resolve, reject) => {
      this.queue.push({ step, work, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  /** Steps waiting for the next batch (while one commits). */
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves when nothing is waiting or committing (shutdown: every submitted step has committed). */
  async idle(): Promise<void> {
    while (this.running) await new Promise((r) => setImmediate(r));
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        await this.commit(batch);
      }
    } finally {
      this.running = false;
    }
  }

  private async commit(batch: Waiting[]): Promise<void> {
    let results: Array<MoneyStepResult | WorkedCharge>;
    try {
      results = batch.length === 1 ? [await this.alone(batch[0]!)] : await this.together(batch);
    } catch (err) {
      if (err instanceof StoreUnavailableError) {
        // The store is down: every step of the batch fails now, and so does every step that
        // queued while this commit hung (each would otherwise wait for the store's timeout once
        // more): their requests answer 503 within one store timeout of their arrival.
        const waited = this.queue;
        this.queue = [];
        for (const w of [...batch, ...waited]) w.reject(err);
        return;
      }
      if (batch.length === 1) {
        batch[0]!.reject(err);
        this.count(1);
        return;
      }
      // one step failed and rolled the batch back: each on its own, so only that one fails
      for (const w of batch) {
        try {
          w.resolve(await this.alone(w));
        } catch (e) {
          w.reject(e);
        }
      }
      this.count(batch.length);
      return;
    }
    this.count(batch.length);
    batch.forEach((w, i) => w.resolve(results[i]));
  }

  /** The steps in one transaction, after their works if any has one. */
  private together(batch: readonly Waiting[]): Promise<Array<MoneyStepResult | WorkedCharge>> {
    const steps = batch.map((w) => w.step);
    if (!batch.some((w) => w.work)) return this.store.batch(steps);
    if (!this.store.batchAfterWork) throw new Error('this store runs no work: submitAfterWork needs a store whose thread runs it');
    return this.store.batchAfterWork(steps, batch.map((w) => w.work));
  }

  /** One step in a transaction of its own (a batch of one); a work that ran in a failed batch runs again (it is pure). */
  private async alone(w: Waiting): Promise<MoneyStepResult | WorkedCharge> {
    return (await this.together([w]))[0];
  }

  private count(steps: number): void {
    this.totals.batches++;
    this.totals.steps += steps;
    this.onBatch?.(steps);
  }
}
