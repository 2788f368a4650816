/**
 * The one billing module of all three entrances (HTTP, bulk files, Kafka):
 * accounts, agreements, prices and the reserve → execute → settle flow.
 *
 *   const account = await billing.authenticate(credentials, op);     // 401 / 403
 *   const r = await billing.reserve(account, op, records);            // 402 before anything runs
 *   try { …run the engine… } catch (e) { await billing.release(r); throw e; }
 *   await billing.settle(r, [{ id: `${requestid}/${i}`, requestid }, …]); // one ledger entry per charged record
 *
 * Ledger ids are the caller's deterministic ids (HTTP `requestid/index`, file jobs
 * `file-identity/line`, Kafka `topic/partition/offset`): settling the same id again charges nothing.
 */
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../contract/errors.ts';
import { OPS, type Op } from '../contract/params.ts';
import type { Credentials } from '../contract/validate.ts';
import { priceOf } from './prices.ts';
import { newRequestId } from './request-id.ts';
import { digestsEqual, generateGuid, generateLicense, hashSecret } from './secrets.ts';
import { openStore } from './open-store.ts';
import {
  UNLIMITED, type AccountRow, type BillingStore, type LedgerEntry, type SettleResult,
} from './store.ts';

/** What callers see of an account: never the secrets or their digests. */
export interface Account {
  id: string;
  /** Balance; -1 = unlimited. */
  credits: number;
  /** Held by open reservations. */
  reserved: number;
  unlimited: boolean;
  agreements: Op[];
  disabled: boolean;
  createdAt: string;
}

export interface Reservation {
  id: string;
  accountId: string;
  op: Op;
  /** Records reserved for. */
  records: number;
  /** Credits held: price × records (also for unlimited accounts, whose balance is never checked). */
  amount: number;
}

export interface Charge {
  /** Deterministic ledger id (see module comment). */
  id: string;
  /** The request id written into the ledger entry. */
  requestid: string;
}

export interface NewAccount {
  credits?: number;
  unlimited?: boolean;
  agreements?: Op[];
}

export interface CreatedAccount {
  license: string;
  guid: string;
  account: string;
}

/**
 * A reservation older than this belongs to a process that died mid-request: every holder (an
 * HTTP batch of 5,000, a file-job batch, a Kafka slice) settles or releases within seconds.
 * Servers and stream workers give such reservations back at start and periodically.
 */
export const STALE_RESERVATION_MS = 2 * 60_000;

export type AccountSelector = { id: string } | { guid: string } | { license: string };

function publicAccount(r: AccountRow): Account {
  return {
    id: r.id, credits: r.credits, reserved: r.reserved, unlimited: r.credits === UNLIMITED,
    agreements: r.agreements, disabled: r.disabled, createdAt: r.createdAt,
  };
}

export function parseAgreements(list: string): Op[] {
  const out: Op[] = [];
  for (const raw of list.split(',')) {
    const a = raw.trim();
    if (!a) continue;
    if (!(OPS as readonly string[]).includes(a)) throw new Error(`unknown agreement '${a}' (use ${OPS.join(', ')})`);
    if (!out.includes(a as Op)) out.push(a as Op);
  }
  return out;
}

export class Billing {
  readonly store: BillingStore;
  private readonly pepper: string;
  private readonly now: () => Date;

  private constructor(store: BillingStore, pepper: string, now: () => Date) {
    this.store = store;
    this.pepper = pepper;
    this.now = now;
  }

  /** Opens (and initialises) a store; `url` as for `--db`. */
  static async open(url?: string): Promise<Billing> {
    return Billing.fromStore(await openStore(url));
  }

  static async fromStore(store: BillingStore, opts: { now?: () => Date } = {}): Promise<Billing> {
    const pepper = await store.init();
    return new Billing(store, pepper, opts.now ?? (() => new Date()));
  }

  async close(): Promise<void> {
    await this.store.close();
  }

  // ---- accounts -----------------------------------------------------------------------------

  async createAccount(opts: NewAccount = {}): Promise<CreatedAccount> {
    const credits = opts.unlimited ? UNLIMITED : (opts.credits ?? 0);
    if (!Number.isSafeInteger(credits) || credits < -1) throw new Error('credits must be a whole number ≥ 0');
    const license = generateLicense();
    const guid = generateGuid();
    const id = randomUUID();
    await this.store.createAccount({
      id,
      licenseHash: hashSecret(this.pepper, 'license', license),
      guidHash: hashSecret(this.pepper, 'guid', guid),
      credits,
      reserved: 0,
      agreements: opts.agreements ?? [],
      disabled: false,
      createdAt: this.now().toISOString(),
    });
    return { license, guid, account: id };
  }

  private async resolve(sel: AccountSelector): Promise<AccountRow | undefined> {
    if ('id' in sel) return this.store.findAccount({ id: sel.id });
    if ('guid' in sel) return this.store.findAccount({ guidHash: hashSecret(this.pepper, 'guid', sel.guid) });
    return this.store.findAccount({ licenseHash: hashSecret(this.pepper, 'license', sel.license) });
  }

  async findAccount(sel: AccountSelector): Promise<Account | undefined> {
    const r = await this.resolve(sel);
    return r ? publicAccount(r) : undefined;
  }

  private async mustResolve(sel: AccountSelector): Promise<AccountRow> {
    const r = await this.resolve(sel);
    if (!r) throw new Error('no such account');
    return r;
  }

  /** Adds credits; `unlimited` makes the account unlimited. */
  async topup(sel: AccountSelector, credits: number | 'unlimited'): Promise<Account> {
    const acc = await this.mustResolve(sel);
    const n = credits === 'unlimited' ? UNLIMITED : credits;
    if (n !== UNLIMITED && (!Number.isSafeInteger(n) || n <= 0)) throw new Error('credits must be a whole number > 0');
    return publicAccount((await this.store.topup(acc.id, n))!);
  }

  async setAgreements(sel: AccountSelector, agreements: Op[]): Promise<Account> {
    const acc = await this.mustResolve(sel);
    return publicAccount((await this.store.setAgreements(acc.id, agreements))!);
  }

  async setDisabled(sel: AccountSelector, disabled: boolean): Promise<Account> {
    const acc = await this.mustResolve(sel);
    return publicAccount((await this.store.setDisabled(acc.id, disabled))!);
  }

  async balance(accountOrId: Account | string): Promise<number> {
    const id = typeof accountOrId === 'string' ? accountOrId : accountOrId.id;
    const r = await this.store.findAccount({ id });
    if (!r) throw new Error('no such account');
    return r.credits;
  }

  ledger(accountId: string, limit?: number): Promise<LedgerEntry[]> {
    return this.store.ledger(accountId, limit);
  }

  // ---- the billing flow ---------------------------------------------------------------------

  /**
   * Checks the credentials (already shape-checked by contract/validate) against the store.
   * Unknown, mismatching or disabled → 401; function not agreed → 403.
   */
  async authenticate(credentials: Credentials, op: Op): Promise<Account> {
    const row = await this.store.findAccount({ licenseHash: hashSecret(this.pepper, 'license', credentials.license) });
    const given = hashSecret(this.pepper, 'guid', credentials.guid);
    // Compare even when the license is unknown, so both failures take the same time.
    const match = digestsEqual(row ? row.guidHash : given.replace(/./g, '0'), given);
    if (!row || !match || row.disabled) throw new ServiceError('UNAUTHORIZED');
    if (!row.agreements.includes(op)) {
      throw new ServiceError('AGREEMENT_MISSING', `Not all required agreements of the function were accepted: '${op}' is not agreed for this account.`);
    }
    return publicAccount(row);
  }

  /** Holds price × records credits, or throws 402 with nothing held. */
  async reserve(account: Account | string, op: Op, records: number): Promise<Reservation> {
    const accountId = typeof account === 'string' ? account : account.id;
    if (!Number.isSafeInteger(records) || records < 0) throw new Error('records must be a whole number ≥ 0');
    const r: Reservation = { id: newRequestId(), accountId, op, records, amount: priceOf(op, records) };
    const ok = await this.store.reserve({ id: r.id, accountId, amount: r.amount, createdAt: this.now().toISOString() });
    if (!ok) throw new ServiceError('INSUFFICIENT_CREDITS');
    return r;
  }

  /**
   * Writes one ledger entry per charge (skipping ids already written), debits them and releases
   * the reservation, in one transaction. Charges beyond the reserved records are a caller bug.
   */
  async settle(reservation: Reservation, charges: readonly Charge[]): Promise<SettleResult> {
    if (charges.length > reservation.records) {
      throw new Error(`settle: ${charges.length} charges for a reservation of ${reservation.records} records`);
    }
    const price = priceOf(reservation.op, 1);
    const time = this.now().toISOString();
    const entries: LedgerEntry[] = charges.map((c) => ({
      id: c.id, account: reservation.accountId, function: reservation.op, credits: price, requestid: c.requestid, time,
    }));
    return this.store.settle(reservation.id, reservation.accountId, entries);
  }

  /** Gives a reservation back without charging (the run failed). */
  release(reservation: Reservation): Promise<void> {
    return this.store.release(reservation.id);
  }

  /** Releases reservations older than `maxAgeMs`, left by a process that died mid-request. */
  releaseStale(maxAgeMs: number): Promise<number> {
    return this.store.releaseStale(new Date(this.now().getTime() - maxAgeMs).toISOString());
  }

  // ---- maintenance --------------------------------------------------------------------------

  getMaintenance(): Promise<boolean> {
    return this.store.getMaintenance();
  }

  setMaintenance(on: boolean): Promise<void> {
    return this.store.setMaintenance(on);
  }
}
