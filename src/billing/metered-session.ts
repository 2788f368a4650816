/**
 * Billing for record streams (file jobs, Kafka): one account, one function, many batches.
 *
 * Each batch is reserved before it runs and settled after (by the handle `reserve` gave, so
 * batches of several partitions may settle in any order); the balance can never be overdrawn
 * however many batches are in flight. When the balance covers only part of a batch, the
 * reservation covers that part and the caller stops (or pauses) at that record.
 * Ledger ids are the caller's deterministic record ids, so settling a replayed record charges
 * nothing (spec README item 11).
 */
import { ServiceError } from '../contract/errors.ts';
import type { Op } from '../contract/params.ts';
import type { Credentials } from '../contract/validate.ts';
import { STALE_RESERVATION_MS, type Account, type Billing, type Reservation } from './billing.ts';
import { priceOf } from './prices.ts';
import { newRequestId } from './request-id.ts';
import { UNLIMITED } from './store.ts';

export class MeteredSession {
  readonly op: Op;
  readonly account: Account;
  /** Written into every ledger entry of this session. */
  readonly requestid: string;
  private readonly billing: Billing;
  private readonly open = new Set<Reservation>();

  private constructor(billing: Billing, account: Account, op: Op) {
    this.billing = billing;
    this.account = account;
    this.op = op;
    this.requestid = newRequestId();
  }

  /** Authenticates once, when the job starts: refused credentials (401/403) stop it before any work. */
  static async start(billing: Billing, credentials: Credentials, op: Op): Promise<MeteredSession> {
    const account = await billing.authenticate(credentials, op);
    // Reservations a killed process left behind.
    await billing.releaseStale(STALE_RESERVATION_MS);
    return new MeteredSession(billing, account, op);
  }

  /**
   * Reserves for up to `records` records. Answers how many the balance covers and the handle to
   * settle them with; `undefined` when it covers none.
   */
  async reserve(records: number): Promise<{ covered: number; handle: Reservation } | undefined> {
    if (records === 0) return undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      const covered = Math.min(records, await this.affordable());
      if (covered === 0) return undefined;
      try {
        const handle = await this.billing.reserve(this.account, this.op, covered);
        this.open.add(handle);
        return { covered, handle };
      } catch (err) {
        // Another holder took credits between the look and the reservation: look again.
        if (!(err instanceof ServiceError && err.status === 402)) throw err;
      }
    }
    return undefined;
  }

  /**
   * Charges, under reservation `handle`, the records whose `chargeable` flag is set, with ledger
   * ids `ids[i]`, and releases the rest of it. Answers the credits of the ledger entries written
   * now (a replayed id: 0; an unlimited account's entries count at their price too).
   */
  async settle(handle: Reservation, ids: readonly string[], chargeable: readonly boolean[]): Promise<number> {
    if (!this.open.delete(handle)) throw new Error('settle: unknown or already settled reservation');
    const r = handle;
    const charges = [];
    for (let i = 0; i < ids.length; i++) if (chargeable[i]) charges.push({ id: ids[i]!, requestid: this.requestid });
    const result = await this.billing.settle(r, charges);
    return priceOf(this.op, result.written);
  }

  /** Gives one reservation back without charging (its batch failed). */
  async releaseOne(handle: Reservation): Promise<void> {
    if (this.open.delete(handle)) await this.billing.release(handle);
  }

  /** Gives back every open reservation (the job stopped). */
  async release(): Promise<void> {
    for (const r of [...this.open]) await this.releaseOne(r);
  }

  /** Records the current balance covers, beyond what is already held. */
  private async affordable(): Promise<number> {
    const acc = await this.billing.findAccount({ id: this.account.id });
    if (!acc || acc.disabled) throw new ServiceError('UNAUTHORIZED');
    if (acc.credits === UNLIMITED) return Number.MAX_SAFE_INTEGER;
    return Math.floor(Math.max(0, acc.credits - acc.reserved) / priceOf(this.op, 1));
  }
}
