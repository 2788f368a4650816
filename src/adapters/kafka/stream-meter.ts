/**
 * The stream worker's side of the one metering path (src/billing/meter.ts): it authenticates the
 * account once per op when the worker starts, and binds the job once the worker knows it — the
 * consumer group on the input topic, named by the topic's id (a UUID from the cluster metadata,
 * so a recreated topic is a new job). Ledger ids are then
 * `<account>/<op>/kafka:<topic id>:<group>/<partition>/<offset>`: the same group reading the same
 * offset again (a crash, an offset reset) is never charged twice; another group, another account
 * or a recreated topic is.
 *
 * Pricing, reservation, the prefix the balance covers, records already charged by this job, and
 * the ledger rows: all in Meter. This file only maps records to meter items.
 */
import { ServiceError, type ErrorBody } from '../../contract/errors.ts';
import type { Op } from '../../contract/params.ts';
import type { Credentials } from '../../contract/validate.ts';
import type { Billing } from '../../billing/billing.ts';
import { Meter, type Hold, type Settled } from '../../billing/meter.ts';
import type { LedgerEntry } from '../../billing/store.ts';

export interface PlanItem {
  /** The op to charge, or undefined for a record that costs nothing (DLQ, rejected, refused op). */
  op: Op | undefined;
  partition: number;
  offset: string;
}

export type BatchPlan = Hold;

export class StreamMeter {
  readonly billing: Billing;
  readonly accountId: string;
  private readonly ops: Op[];
  private readonly refused = new Map<Op, ErrorBody>();
  private meter: Meter | undefined;

  private constructor(billing: Billing, accountId: string, ops: Op[], refused: Map<Op, ErrorBody>) {
    this.billing = billing;
    this.accountId = accountId;
    this.ops = ops;
    this.refused = refused;
  }

  /**
   * Authenticates once per op. 401 (or every op refused) throws: the worker does not start.
   * An op whose agreement is missing (403) is remembered: its records get the 403 error result.
   */
  static async start(billing: Billing, credentials: Credentials, ops: readonly Op[]): Promise<StreamMeter> {
    let first: ServiceError | undefined;
    let accountId: string | undefined;
    const allowed: Op[] = [];
    const refused = new Map<Op, ErrorBody>();
    for (const op of ops) {
      try {
        accountId = (await billing.authenticate(credentials, op)).id;
        allowed.push(op);
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
        if (e.status === 401) throw e;
        first ??= e;
        refused.set(op, e.toBody());
      }
    }
    if (!accountId) throw first!;
    await billing.releaseExpired(); // reservations a killed worker left behind
    return new StreamMeter(billing, accountId, allowed, refused);
  }

  /** Names the job: the consumer group on the input topic, by the topic's id. Called by the worker at start. */
  bindJob(topicId: string, group: string): void {
    if (this.meter && this.meter.job.kind === 'kafka' && this.meter.job.topicId === topicId && this.meter.job.group === group) return;
    if (this.meter) throw new Error('the stream meter is already bound to another job');
    this.meter = new Meter(this.billing, this.accountId, { kind: 'kafka', topicId, group });
  }

  private get m(): Meter {
    if (!this.meter) throw new Error('the stream meter has no job yet (bindJob)');
    return this.meter;
  }

  /** The error result of an op the account may not use, or undefined. */
  refusal(op: Op): ErrorBody | undefined {
    return this.refused.get(op);
  }

  /** The request id written into this worker's ledger entries (and answered for requestproof). */
  requestId(): string {
    return this.m.requestid;
  }

  /** The ledger id of a record (for tests and logs). */
  ledgerId(op: Op, partition: number, offset: string): string {
    return this.m.ledgerId(op, `${partition}/${offset}`);
  }

  /** Holds credits for the longest prefix of `items` the balance pays for (free items cost nothing). */
  plan(items: readonly PlanItem[]): Promise<BatchPlan> {
    return this.m.hold(items.map((it) => ({ op: it.op, record: `${it.partition}/${it.offset}` })), { partial: true });
  }

  /**
   * Charges the covered items whose flag is set; answers the ledger rows written now, and the rows
   * an earlier attempt at these records wrote whose ledger-topic entry never committed.
   */
  settle(plan: BatchPlan, chargeable: readonly boolean[]): Promise<Settled> {
    return this.m.settle(plan, chargeable, { exportLater: true });
  }

  /** The ledger-topic entries of these rows committed. */
  markExported(entries: readonly LedgerEntry[]): Promise<void> {
    return this.m.markExported(entries);
  }

  /** Gives back what a plan still holds. */
  async release(plan: BatchPlan): Promise<void> {
    await this.m.release(plan);
  }

  /** Balance now (for `returnavailablecredits`); -1 = unlimited. */
  balance(): Promise<number> {
    return this.billing.balance(this.accountId);
  }

  /** Whether the balance (beyond what is held) pays for one record of the cheapest op. */
  canAffordOne(): Promise<boolean> {
    return this.m.canAffordOne(this.ops);
  }

  async close(): Promise<void> {
    await this.meter?.close();
  }
}
