/**
 * Billing of the stream worker: one MeteredSession per op (same account), reserve before a batch
 * runs, settle (ledger + debit, idempotent on `topic/partition/offset`) before its Kafka
 * transaction commits.
 *
 * `plan` answers how long a PREFIX of the batch (in offset order) the balance covers: the worker
 * processes that prefix and pauses the partition at the first record it could not pay for, so no
 * record is ever skipped. Records a crashed run already charged (their ledger id is in the store)
 * need no new credits: when the balance falls short they are looked up and counted as paid, so a
 * replay after a crash never stalls on credits it has already spent.
 */
import { ServiceError, type ErrorBody } from '../../contract/errors.ts';
import type { Op } from '../../contract/params.ts';
import type { Credentials } from '../../contract/validate.ts';
import type { Billing, Reservation } from '../../billing/billing.ts';
import { MeteredSession } from '../../billing/metered-session.ts';
import { STALE_RESERVATION_MS } from '../../billing/billing.ts';
import { PRICES } from '../../billing/prices.ts';
import { UNLIMITED } from '../../billing/store.ts';

export interface PlanItem {
  /** The op to charge, or undefined for a record that costs nothing (DLQ, refused op). */
  op: Op | undefined;
  /** Ledger id. */
  id: string;
}

export interface BatchPlan {
  /** Items [0, covered) may run; the rest wait for credits. */
  covered: number;
  reservations: Map<Op, Reservation>;
  /** Ledger ids already in the store (a replay): never charged again. */
  prepaid: Set<string>;
}

export class StreamMeter {
  readonly billing: Billing;
  private readonly sessions = new Map<Op, MeteredSession>();
  private readonly refused = new Map<Op, ErrorBody>();

  private constructor(billing: Billing) {
    this.billing = billing;
  }

  /**
   * Authenticates once per op. 401 (or every op refused) throws: the worker does not start.
   * An op whose agreement is missing (403) is remembered: its records get the 403 error result.
   */
  static async start(billing: Billing, credentials: Credentials, ops: readonly Op[]): Promise<StreamMeter> {
    const m = new StreamMeter(billing);
    let first: ServiceError | undefined;
    for (const op of ops) {
      try {
        m.sessions.set(op, await MeteredSession.start(billing, credentials, op));
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
        if (e.status === 401) throw e;
        first ??= e;
        m.refused.set(op, e.toBody());
      }
    }
    if (m.sessions.size === 0) throw first!;
    return m;
  }

  get accountId(): string {
    return [...this.sessions.values()][0]!.account.id;
  }

  /** The error result of an op the account may not use, or undefined. */
  refusal(op: Op): ErrorBody | undefined {
    return this.refused.get(op);
  }

  /** The request id written into this session's ledger entries (and answered for requestproof). */
  requestId(op: Op): string {
    return this.sessions.get(op)!.requestid;
  }

  async plan(items: readonly PlanItem[]): Promise<BatchPlan> {
    const charged = (it: PlanItem): it is PlanItem & { op: Op } => it.op !== undefined && this.sessions.has(it.op);
    // What the balance pays for, walking in offset order (each op at its own price).
    const available = await this.available();
    const prepaid = new Set<string>();
    let want = walk(items, charged, prepaid, available);
    if (want.covered < items.length) {
      // short: records a crashed run already charged need no credits again
      for (const it of items) if (charged(it) && (await this.billing.store.ledgerEntry(it.id))) prepaid.add(it.id);
      if (prepaid.size) want = walk(items, charged, prepaid, available);
    }
    const reservations = new Map<Op, Reservation>();
    const coveredBy = new Map<Op, number>();
    for (const [op, n] of want.counts) {
      const r = await this.sessions.get(op)!.reserve(n);
      coveredBy.set(op, r?.covered ?? 0);
      if (r) reservations.set(op, r.handle);
    }
    // another holder may have taken credits in between: cut at what was really reserved
    const used = new Map<Op, number>();
    let covered = 0;
    for (; covered < want.covered; covered++) {
      const it = items[covered]!;
      if (!charged(it) || prepaid.has(it.id)) continue;
      const u = (used.get(it.op) ?? 0) + 1;
      if (u > (coveredBy.get(it.op) ?? 0)) break;
      used.set(it.op, u);
    }
    return { covered, reservations, prepaid };
  }

  /** Credits free to reserve (beyond open reservations); Infinity for unlimited accounts. */
  private async available(): Promise<number> {
    const acc = await this.billing.findAccount({ id: this.accountId });
    if (!acc || acc.disabled) throw new ServiceError('UNAUTHORIZED');
    return acc.credits === UNLIMITED ? Number.POSITIVE_INFINITY : Math.max(0, acc.credits - acc.reserved);
  }

  /**
   * Writes the ledger entries of the charged records of `op` and debits them, releasing the
   * reservation; ids already in the ledger are skipped by the store. Answers the credits charged now.
   */
  async settle(plan: BatchPlan, op: Op, ids: readonly string[], chargeable: readonly boolean[]): Promise<number> {
    const handle = plan.reservations.get(op);
    if (!handle) return 0;
    plan.reservations.delete(op);
    const flags = ids.map((id, i) => chargeable[i]! && !plan.prepaid.has(id));
    return this.sessions.get(op)!.settle(handle, ids, flags);
  }

  /** Gives back what a plan still holds (its batch failed, or the ops it reserved for did not run). */
  async release(plan: BatchPlan): Promise<void> {
    for (const [op, handle] of plan.reservations) await this.sessions.get(op)!.releaseOne(handle);
    plan.reservations.clear();
  }

  /** Balance after the latest settle (for `returnavailablecredits`); -1 = unlimited. */
  async balance(): Promise<number> {
    return this.billing.balance(this.accountId);
  }

  /** Whether the balance (beyond what is reserved) pays for at least one record of the cheapest op. */
  async canAffordOne(): Promise<boolean> {
    // a worker killed mid-batch left its reservation behind: give it back once it is stale
    await this.billing.releaseStale(STALE_RESERVATION_MS);
    const acc = await this.billing.findAccount({ id: this.accountId });
    if (!acc || acc.disabled) return false;
    if (acc.credits === UNLIMITED) return true;
    const cheapest = Math.min(...[...this.sessions.keys()].map((op) => PRICES[op]));
    return acc.credits - acc.reserved >= cheapest;
  }

  async close(): Promise<void> {
    for (const s of this.sessions.values()) await s.release();
  }
}

/** The longest prefix whose charged, not prepaid records cost at most `credits`; records per op in it. */
function walk(
  items: readonly PlanItem[], charged: (it: PlanItem) => it is PlanItem & { op: Op }, prepaid: ReadonlySet<string>, credits: number,
): { covered: number; counts: Map<Op, number> } {
  const counts = new Map<Op, number>();
  let left = credits;
  let covered = 0;
  for (; covered < items.length; covered++) {
    const it = items[covered]!;
    if (!charged(it) || prepaid.has(it.id)) continue;
    if (left < PRICES[it.op]) break;
    left -= PRICES[it.op];
    counts.set(it.op, (counts.get(it.op) ?? 0) + 1);
  }
  return { covered, counts };
}
