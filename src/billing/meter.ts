/**
 * The one metering wiring of every entrance (HTTP request, file job, Kafka consumer group):
 * authenticate → reserve → execute → settle → ledger entry. Every entrance opens its meter with
 * `Meter.open` and hands its decoded items to `hold`; nothing else of billing is wired by an
 * entrance, and no entrance (nor the CLI) talks to a store.
 *
 *   const meter = await Meter.open(billing, credentials, ops, { job });  // 401/403 here; job: ledger-id.ts
 *   const hold = await meter.hold(items, { partial });         // items already validated
 *   …run hold.covered items…                                   // (the adapter runs the engine)
 *   const s = await meter.settle(hold, chargeable);            // ledger rows + debit, once
 *   // s.entries: the ledger rows written NOW (a replayed record has none); s.credits charged
 *   // or, when the work already ran (an HTTP single record): meter.charge(op, chargeable), one step
 *   await meter.close();                                       // a long job: releases what it still holds
 *
 * An adapter hands in validated elements (`op` set) and free ones (`op` undefined: rejected by
 * validation, refused op, undecodable): free items hold no credits and are never charged. It gets
 * back how many items it may run (`covered`: a prefix, with `partial`; all or 402 without) and,
 * after settle, exactly what was charged. It never prices, reserves or writes ledger rows itself.
 * The entrances differ only in their options:
 * - HTTP: one meter per request (job = the request), `partial: false` (all or 402);
 * - file job: one meter per job (job = the job id of the checkpoint), `partial: true`, batches
 *   settled in the order they were held; `sweep` at open;
 * - Kafka: one meter per worker, its job bound once the worker knows the topic's id (`bindJob`),
 *   a slice held (`partial`) and settled with `exportLater` (the ledger topic mirrors the rows) in
 *   one step, `holdAndSettle`, since its engine ran first; `sweep` at open; an op the account may
 *   not use is a `refusal` (its records get the 403 as their result).
 *
 * - Ledger ids are made here from the account, the function, the job and the item's record key.
 * - A record the same job already charged (a crash replay, a resume, an offset reset) is
 *   "prepaid": it needs no new credits, so a replay never stalls on an empty balance, and it is
 *   never charged again (the store's insert is idempotent on the id in any case).
 * - Reservations are leases, renewed by a timer while they are open (lease-renewer.ts), so a slow
 *   live job keeps them; a dead process's are released once their lease ends
 *   (`Billing.releaseExpired`).
 */
import { ServiceError, type ErrorBody } from '../contract/errors.ts';
import type { Op } from '../contract/params.ts';
import type { Credentials } from '../contract/validate.ts';
import type { Billing, Charge, Reservation } from './billing.ts';
import { renewerOf, type LeaseRenewer } from './lease-renewer.ts';
import { jobKey, ledgerId, type JobIdentity } from './ledger-id.ts';
import { PRICES } from './prices.ts';
import { newRequestId } from './request-id.ts';
import { UNLIMITED, type AnswerTemplate, type IdempotentAnswer, type LedgerEntry, type StepWork } from './store.ts';
import { countByOp, nothing, walk, writtenPositions, type Hold, type HoldOptions, type MeterItem, type OpenOptions, type SettleOpts, type Settled } from './meter-types.ts';

export type { AnswerTemplate, IdempotentAnswer };
export type { Hold, HoldOptions, MeterItem, OpenOptions, SettleOpts, Settled };
export { answerTemplate, fillAnswer } from './store.ts';

export class Meter {
  readonly billing: Billing;
  readonly accountId: string;
  /** Written into every ledger entry of this meter (HTTP: the request's id). */
  readonly requestid: string;
  /** The ops this meter may charge (those the account has agreed). */
  readonly ops: readonly Op[];
  private bound: { job: JobIdentity; key: string } | undefined;
  private readonly refused: ReadonlyMap<Op, ErrorBody>;
  private readonly open = new Set<Reservation>();
  private readonly exporting = new Set<Promise<void>>();
  private readonly leases: LeaseRenewer;

  constructor(billing: Billing, accountId: string, job: JobIdentity | undefined, opts: { requestid?: string; ops?: readonly Op[]; refused?: ReadonlyMap<Op, ErrorBody> } = {}) {
    this.billing = billing;
    this.accountId = accountId;
    if (job) this.bound = { job, key: jobKey(job) };
    this.requestid = opts.requestid ?? (job?.kind === 'http' ? job.requestid : newRequestId());
    this.ops = opts.ops ?? [];
    this.refused = opts.refused ?? new Map();
    this.leases = renewerOf(billing);
  }

  /**
   * Authenticates the credentials for each of `ops` (shape-checked by contract/validate). 401 —
   * or every op refused — throws: nothing starts. An op whose agreement is missing (403) is
   * remembered as a `refusal` when another op is allowed (a Kafka worker on both ops).
   */
  static async open(billing: Billing, credentials: Credentials, ops: readonly Op[], opts: OpenOptions = {}): Promise<Meter> {
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
    if (opts.sweep) await billing.releaseExpired(); // reservations a killed process left behind
    return new Meter(billing, accountId, opts.job, { ops: allowed, refused });
  }

  /** Names the job once (a Kafka worker at start: the consumer group on the input topic, by the topic's id). */
  bindJob(job: JobIdentity): void {
    if (this.bound) {
      if (jobKey(this.bound.job) === jobKey(job)) return;
      throw new Error('the meter is already bound to another job');
    }
    this.bound = { job, key: jobKey(job) };
  }

  get job(): JobIdentity {
    return this.mustBind().job;
  }

  /** The error result of an op the account may not use, or undefined. */
  refusal(op: Op): ErrorBody | undefined {
    return this.refused.get(op);
  }

  /** The ledger id of a record of this job. */
  ledgerId(op: Op, record: string | number): string {
    return ledgerId(this.accountId, op, this.mustBind().key, record);
  }

  async hold(items: readonly MeterItem[], opts: HoldOptions): Promise<Hold> {
    const ids = items.map((it) => (it.op ? this.ledgerId(it.op, it.record) : undefined));
    const prepaid = new Set<number>();
    if (!opts.partial) {
      const reservations = await this.reserveAll(countByOp(items, prepaid, items.length));
      return { covered: items.length, items, ids, prepaid, reservations };
    }
    for (let attempt = 0; ; attempt++) {
      const available = await this.available();
      let covered = walk(items, prepaid, available);
      if (covered < items.length && prepaid.size === 0) {
        // short: records this job already charged (a replay) need no credits again
        const charged = ids.filter((id): id is string => id !== undefined);
        const present = await this.billing.ledgerIdsPresent(this.accountId, charged);
        if (present.size > 0) {
          ids.forEach((id, i) => { if (id !== undefined && present.has(id)) prepaid.add(i); });
          covered = walk(items, prepaid, available);
        }
      }
      try {
        const reservations = await this.reserveAll(countByOp(items, prepaid, covered));
        return { covered, items, ids, prepaid, reservations };
      } catch (err) {
        // another holder took credits between the look and the reservation: look again
        if (!(err instanceof ServiceError && err.status === 402) || attempt >= 4) throw err;
      }
    }
  }

  /**
   * Charges the items of [0, hold.covered) whose `chargeable[i]` is set (and that this job has not
   * charged before), writes their ledger rows and releases the rest of the hold, atomically per
   * function.
   */
  async settle(hold: Hold, chargeable: readonly boolean[], opts: SettleOpts = {}): Promise<Settled> {
    const out = nothing(hold.covered);
    const times = new Map<Op, string>();
    for (const [op, res] of [...hold.reservations]) {
      const { charges, at } = this.chargesOf(op, hold.items, hold.ids, hold.prepaid, chargeable, hold.covered);
      hold.reservations.delete(op);
      this.forget(res);
      // the stored answer rides on the last reservation's settle (HTTP holds one op)
      const last = hold.reservations.size === 0;
      const r = await this.billing.settle(res, charges, {
        ...(opts.exportLater ? { exportLater: true } : {}), ...(opts.answer && last ? { answer: opts.answer } : {}),
      });
      out.balance = r.credits;
      this.takeWritten(out, op, writtenPositions(charges, at, r.writtenIds));
      times.set(op, r.time);
    }
    this.entriesOf(out, (i) => hold.items[i]!.op!, hold.ids, times);
    if (opts.exportLater) out.unexported = await this.unmirrored(hold.ids, chargeable, out.written, hold.covered);
    return out;
  }

  /**
   * `hold` with `partial` and `settle` of the covered prefix in ONE store step and transaction
   * (`Billing.charge`), for items whose work already ran (a Kafka slice: the engine is pure, so
   * running it first shows nothing to anyone). The prefix is decided as `hold` decides it: the
   * balance net of every pending reservation pays for its valid items, records this job already
   * charged (a replay) need none; then exactly what `settle` would write is written. 402 from the
   * store (another holder took credits after the look) means: look again. Items of more than one
   * function take `hold` and `settle`, as before. `covered` 0: nothing was written.
   */
  async holdAndSettle(items: readonly MeterItem[], chargeable: readonly boolean[], opts: Pick<SettleOpts, 'exportLater'> = {}): Promise<Settled & { covered: number }> {
    const ops = new Set<Op>();
    for (const it of items) if (it.op) ops.add(it.op);
    if (ops.size > 1) {
      const hold = await this.hold(items, { partial: true });
      try {
        return { covered: hold.covered, ...(hold.covered > 0 ? await this.settle(hold, chargeable, opts) : nothing(0)) };
      } finally {
        await this.release(hold).catch(() => {}); // what settle did not release (its leases end in any case)
      }
    }
    const op = [...ops][0];
    const ids = items.map((it) => (it.op ? this.ledgerId(it.op, it.record) : undefined));
    const prepaid = new Set<number>();
    for (let attempt = 0; ; attempt++) {
      const available = await this.available();
      let covered = walk(items, prepaid, available);
      if (covered < items.length && prepaid.size === 0) {
        // short: records this job already charged (a replay) need no credits again
        const present = await this.billing.ledgerIdsPresent(this.accountId, ids.filter((id): id is string => id !== undefined));
        ids.forEach((id, i) => { if (id !== undefined && present.has(id)) prepaid.add(i); });
        covered = walk(items, prepaid, available);
      }
      const out: Settled & { covered: number } = { covered, ...nothing(covered) };
      const records = op ? countByOp(items, prepaid, covered).get(op) ?? 0 : 0;
      if (covered === 0 || !op) return out;
      const { charges, at } = this.chargesOf(op, items, ids, prepaid, chargeable, covered);
      if (records > 0) {
        let r;
        try {
          r = await this.billing.charge(this.accountId, op, records, charges, opts.exportLater ? { exportLater: true } : {});
        } catch (err) {
          // another holder took credits between the look and the charge: look again
          if (!(err instanceof ServiceError && err.status === 402) || attempt >= 4) throw err;
          continue;
        }
        out.balance = r.credits;
        this.takeWritten(out, op, writtenPositions(charges, at, r.writtenIds));
        this.entriesOf(out, () => op, ids, new Map([[op, r.time]]));
      }
      if (opts.exportLater) out.unexported = await this.unmirrored(ids, chargeable, out.written, covered);
      return out;
    }
  }

  /** The charges of the items of [0, covered) of function `op` that are chargeable and not prepaid (this job charged them before), and their items' positions. */
  private chargesOf(
    op: Op, items: readonly MeterItem[], ids: ReadonlyArray<string | undefined>, prepaid: ReadonlySet<number>,
    chargeable: readonly boolean[], covered: number,
  ): { charges: Charge[]; at: number[] } {
    const charges: Charge[] = [];
    const at: number[] = [];
    for (let i = 0; i < covered; i++) {
      if (items[i]!.op !== op || !chargeable[i] || prepaid.has(i)) continue;
      charges.push({ id: ids[i]!, requestid: this.requestid });
      at.push(i);
    }
    return { charges, at };
  }

  /** The items (by position) whose rows the store wrote now for `op`: written, and their credits. */
  private takeWritten(out: Settled, op: Op, positions: readonly number[]): void {
    for (const i of positions) out.written[i] = true;
    out.credits += positions.length * PRICES[op];
  }

  /** `out.entries`: the rows written now, in item order (item i of function `opOf(i)`), each at its function's settle time. */
  private entriesOf(out: Settled, opOf: (i: number) => Op, ids: ReadonlyArray<string | undefined>, times: ReadonlyMap<Op, string>): void {
    for (let i = 0; i < out.written.length; i++) {
      if (!out.written[i]) continue;
      const op = opOf(i);
      out.entries.push({ id: ids[i]!, account: this.accountId, function: op, credits: PRICES[op], requestid: this.requestid, time: times.get(op)! });
    }
  }

  /**
   * The rows of the charged items of [0, covered) for which no row was written now (a replay) that
   * were settled with `exportLater` and whose mirror never committed, in item order.
   */
  private async unmirrored(ids: ReadonlyArray<string | undefined>, chargeable: readonly boolean[], written: readonly boolean[], covered: number): Promise<LedgerEntry[]> {
    const replayed: string[] = [];
    for (let i = 0; i < covered; i++) if (ids[i] !== undefined && chargeable[i] && !written[i]) replayed.push(ids[i]!);
    if (replayed.length === 0) return [];
    const order = new Map(replayed.map((id, k) => [id, k]));
    return (await this.billing.unexported(this.accountId, replayed)).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }

  /**
   * `hold` (all or 402) and `settle` in ONE store step and transaction, for the records 0…n-1 of one
   * function whose work already ran: an HTTP single record, whose engine is pure, so that running
   * it before the 402 check shows nothing to anyone. 402 with nothing written exactly when `hold`
   * would have refused; otherwise what `settle` answers (never a replay: the job is the request).
   */
  async charge(op: Op, chargeable: readonly boolean[], opts: Pick<SettleOpts, 'answer'> = {}): Promise<Settled> {
    const ids = chargeable.map((_, i) => this.ledgerId(op, i));
    const charges: Charge[] = [];
    const at: number[] = [];
    ids.forEach((id, i) => { if (chargeable[i]) { charges.push({ id, requestid: this.requestid }); at.push(i); } });
    return this.chargedOf(op, ids, charges, at, await this.billing.charge(this.accountId, op, ids.length, charges, opts.answer ? { answer: opts.answer } : {}));
  }

  /**
   * `charge` of one record whose engine run is `work`, run on the store's thread just before the
   * charge commits (Billing.chargeAfterWork; only where `billing.runsWork`): the work's record
   * decides whether it is charged. Answers the charge and the work's result.
   */
  async chargeAfterWork(op: Op, work: StepWork): Promise<{ settled: Settled; result: unknown }> {
    const ids = [this.ledgerId(op, 0)];
    const charges = [{ id: ids[0]!, requestid: this.requestid }];
    const r = await this.billing.chargeAfterWork(this.accountId, op, 1, charges, work);
    return { settled: this.chargedOf(op, ids, charges, [0], r.settled), result: r.result };
  }

  /** What a charge of records `ids` (`charges` of the items at `at`) settled, as `settle` answers it. */
  private chargedOf(op: Op, ids: readonly string[], charges: readonly Charge[], at: readonly number[], r: { writtenIds: string[]; credits: number; time: string }): Settled {
    const out = nothing(ids.length);
    out.balance = r.credits;
    this.takeWritten(out, op, writtenPositions(charges, at, r.writtenIds));
    this.entriesOf(out, () => op, ids, new Map([[op, r.time]]));
    return out;
  }

  /**
   * The records [from, to) of `scope` in this job (`<partition>` and offsets on Kafka: what a
   * transaction moved the group's committed offset over) were committed with their mirror (see
   * SettleOpts.exportLater): their rows count as exported from now on (one store row per scope,
   * not an update per ledger row). Not waited for (best effort: a range left unmarked is mirrored
   * again only if its records are read again); `exportsDone` and `close` wait for it.
   */
  markMirroredLater(scope: string, from: bigint, to: bigint, onError: (err: unknown) => void): void {
    const p: Promise<void> = this.billing.markMirrored(this.accountId, `${this.mustBind().key}/${scope}`, from, to)
      .catch(onError).finally(() => this.exporting.delete(p));
    this.exporting.add(p);
  }

  /** Resolves once every `markMirroredLater` so far has finished. */
  async exportsDone(): Promise<void> {
    while (this.exporting.size > 0) await Promise.all([...this.exporting]);
  }

  /** Gives back what a hold still holds (its run failed, or nothing in it was run). */
  async release(hold: Hold): Promise<void> {
    for (const [op, res] of [...hold.reservations]) {
      hold.reservations.delete(op);
      this.forget(res);
      await this.billing.release(res);
    }
  }

  /** Balance now (-1 = unlimited). */
  balance(): Promise<number> {
    return this.billing.balance(this.accountId);
  }

  /** Whether the balance beyond what is held pays for one record of the cheapest of `ops` (default: the meter's). */
  async canAffordOne(ops: readonly Op[] = this.ops): Promise<boolean> {
    await this.billing.releaseExpired();
    const acc = await this.billing.findAccount({ id: this.accountId });
    if (!acc || acc.disabled) return false;
    if (acc.credits === UNLIMITED) return true;
    return acc.credits - acc.reserved >= Math.min(...ops.map((op) => PRICES[op]));
  }

  /** Releases every open reservation and stops renewing (the job ended). */
  async close(): Promise<void> {
    await this.exportsDone();
    for (const r of [...this.open]) {
      this.forget(r);
      await this.billing.release(r).catch(() => {});
    }
  }

  // ---- internals ----------------------------------------------------------------------------

  private async reserveAll(counts: Map<Op, number>): Promise<Map<Op, Reservation>> {
    const held = new Map<Op, Reservation>();
    try {
      for (const [op, n] of counts) {
        if (n === 0) continue;
        const r = await this.billing.reserve(this.accountId, op, n);
        held.set(op, r);
        this.open.add(r);
        this.leases.add(r);
      }
    } catch (err) {
      for (const r of held.values()) {
        this.forget(r);
        await this.billing.release(r).catch(() => {});
      }
      throw err;
    }
    return held;
  }

  private mustBind(): { job: JobIdentity; key: string } {
    if (!this.bound) throw new Error('the meter has no job yet (bindJob)');
    return this.bound;
  }

  private forget(r: Reservation): void {
    this.open.delete(r);
    this.leases.delete(r);
  }

  /** Credits free to reserve; Infinity for unlimited accounts. */
  private async available(): Promise<number> {
    const acc = await this.billing.findAccount({ id: this.accountId });
    if (!acc || acc.disabled) throw new ServiceError('UNAUTHORIZED');
    return acc.credits === UNLIMITED ? Number.POSITIVE_INFINITY : Math.max(0, acc.credits - acc.reserved);
  }
}
