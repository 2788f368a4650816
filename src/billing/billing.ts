/**
 * Accounts, agreements, prices and the store-level reserve / settle / release / lease steps.
 * Entrances do not call the money steps here: they go through the one metering path,
 * `Meter` (meter.ts), which owns reserve → execute → settle → ledger entry for all of them.
 *
 * Ledger ids name their account, function and job (ledger-id.ts): settling the same id again
 * charges nothing, and settle refuses an id of another account or function.
 */
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../contract/errors.ts';
import { OPS, type Op } from '../contract/params.ts';
import type { Credentials } from '../contract/validate.ts';
import { digestsEqual, generateGuid, generateLicense, hashSecret } from './secrets.ts';
import { openStore } from './open-store.ts';
import { AuthCache } from './auth-cache.ts';
import { GroupCommit } from './group-commit.ts';
import { ledgerEntries, newReservation, type Charge, type Reservation } from './money-steps.ts';
import {
  StoreUnavailableError, UNLIMITED, type AccountRow, type BillingStore, type IdempotencyClaim, type IdempotentAnswer, type LedgerEntry, type MoneyStep,
  type SettleOptions, type SettleResult, type StepWork,
} from './store.ts';
import type { ThreadWork } from './sqlite/thread-work.ts';

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

export type { Charge, Reservation } from './money-steps.ts';

type ChargeStep = Extract<MoneyStep, { kind: 'charge' }>;

/** A charge's answer with its ledger time; false (the hold failed) is the 402. */
function settledAt(settled: false | SettleResult, time: string): SettleResult & { time: string } {
  if (settled === false) throw new ServiceError('INSUFFICIENT_CREDITS');
  return { ...settled, time };
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
 * How long a reservation's lease lasts unless renewed. A holder (Meter) renews its open
 * reservations every third of it, so a live job, however slow, keeps them; a process that died
 * stops renewing, and once the lease has run out any process may release them
 * (`releaseExpired`: servers and workers sweep at start and periodically).
 * `ADDRFLOW_LEASE_MS` overrides it (tests use a short lease).
 */
export const DEFAULT_LEASE_MS = 60_000;

/** How long an HTTP answer is kept for its `Idempotency-Key`. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** A key still pending after this belongs to a server that died: another request may take it. */
export const IDEMPOTENCY_PENDING_MS = 5 * 60_000;

function leaseFromEnv(): number {
  const v = process.env.ADDRFLOW_LEASE_MS;
  const n = v === undefined ? NaN : Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_LEASE_MS;
}

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
  /** Lease of a reservation (ms); see DEFAULT_LEASE_MS. */
  readonly leaseMs: number;
  private readonly pepper: string;
  readonly now: () => Date;
  /** Reserves, settles and releases of concurrent holders share one transaction (group-commit.ts). */
  readonly commits: GroupCommit;
  /** Claimed Idempotency-Keys whose abandon failed (store unreachable): given back later (retryAbandons). */
  private readonly unabandoned = new Map<string, { accountId: string; key: string; until: number }>();
  /** Credential digests and, for `authCacheMs`, the accounts authentication read (auth-cache.ts). */
  private readonly auth: AuthCache;

  private constructor(store: BillingStore, pepper: string, now: () => Date, leaseMs: number, authCacheMs: number) {
    this.store = store;
    this.commits = new GroupCommit(store);
    this.auth = new AuthCache(authCacheMs);
    this.pepper = pepper;
    this.now = now;
    this.leaseMs = leaseMs;
  }

  /**
   * Opens (and initialises) a store; `url` as for `--db`. `thread`: SQLite on a thread of its own
   * (open-store.ts); `authCacheMs`: how long an account read by `authenticate` is kept (default 0).
   */
  static async open(url?: string, opts: { thread?: boolean; authCacheMs?: number; work?: ThreadWork } = {}): Promise<Billing> {
    const store = await openStore(url, { thread: opts.thread ?? false, ...(opts.work ? { work: opts.work } : {}) });
    return Billing.fromStore(store, { authCacheMs: opts.authCacheMs ?? 0 });
  }

  /** Whether the store's thread runs a record's work before its charge commits (`chargeAfterWork`; SQLite on a thread given work). */
  get runsWork(): boolean {
    return this.store.runsWork === true;
  }

  static async fromStore(store: BillingStore, opts: { now?: () => Date; leaseMs?: number; authCacheMs?: number } = {}): Promise<Billing> {
    let pepper: string;
    try {
      pepper = await store.init();
    } catch (err) {
      await store.close().catch(() => {}); // e.g. a store thread that must not outlive the failure
      throw err;
    }
    return new Billing(store, pepper, opts.now ?? (() => new Date()), opts.leaseMs ?? leaseFromEnv(), opts.authCacheMs ?? 0);
  }

  async close(): Promise<void> {
    await this.commits.idle(); // every step submitted has committed
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
    if ('guid' in sel) return this.store.findAccount({ guidHash: this.digest('guid', sel.guid) });
    return this.store.findAccount({ licenseHash: this.digest('license', sel.license) });
  }

  /** The keyed digest of a credential (memoised: auth-cache.ts). */
  private digest(kind: 'license' | 'guid', value: string): string {
    return this.auth.digest(kind, value, () => hashSecret(this.pepper, kind, value));
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
    this.auth.clear();
    return publicAccount((await this.store.topup(acc.id, n))!);
  }

  async setAgreements(sel: AccountSelector, agreements: Op[]): Promise<Account> {
    const acc = await this.mustResolve(sel);
    this.auth.clear();
    return publicAccount((await this.store.setAgreements(acc.id, agreements))!);
  }

  async setDisabled(sel: AccountSelector, disabled: boolean): Promise<Account> {
    const acc = await this.mustResolve(sel);
    this.auth.clear();
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

  /** Which of `ids` the account's ledger already holds (records a job charged before: a replay). */
  ledgerIdsPresent(accountId: string, ids: readonly string[]): Promise<Set<string>> {
    return this.store.ledgerIdsPresent(accountId, ids);
  }

  /** The rows among `ids` settled with `exportLater` whose mirror never committed. */
  unexported(accountId: string, ids: readonly string[]): Promise<LedgerEntry[]> {
    return this.store.unexported(accountId, ids);
  }

  /** The records [from, to) of `scope` were committed with their mirror (BillingStore.markMirrored). */
  markMirrored(accountId: string, scope: string, from: bigint, to: bigint): Promise<void> {
    return this.store.markMirrored(accountId, scope, from, to);
  }

  // ---- the billing flow ---------------------------------------------------------------------

  /**
   * Checks the credentials (already shape-checked by contract/validate) against the store.
   * Unknown, mismatching or disabled → 401; function not agreed → 403. With `authCacheMs`, the
   * account may be one read up to that long ago (auth-cache.ts): a change another process makes
   * takes effect within it. The balance it carries is not for decisions (reserve asks the store).
   */
  async authenticate(credentials: Credentials, op: Op): Promise<Account> {
    const licenseHash = this.digest('license', credentials.license);
    const row = await this.auth.account(licenseHash, () => this.store.findAccount({ licenseHash }));
    const given = this.digest('guid', credentials.guid);
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
    const { reservation, row } = newReservation(account, op, records, this.now(), this.leaseMs);
    const ok = await this.commits.submit({ kind: 'reserve', reservation: row });
    if (!ok) throw new ServiceError('INSUFFICIENT_CREDITS');
    return reservation;
  }

  /**
   * Writes one ledger entry per charge (skipping ids already written), debits them and releases
   * the reservation, in one transaction. Charges beyond the reserved records are a caller bug.
   */
  async settle(reservation: Reservation, charges: readonly Charge[], opts: SettleOptions = {}): Promise<SettleResult & { time: string }> {
    const { entries, time } = ledgerEntries(reservation, charges, this.now().toISOString());
    const settled = await this.commits.submit({ kind: 'settle', reservationId: reservation.id, accountId: reservation.accountId, entries, opts });
    return { ...(settled as SettleResult), time };
  }

  /**
   * `reserve` and `settle` in one step and one transaction, for work that already ran (an HTTP
   * single record): the hold of `records` is decided exactly as `reserve` decides it (402 with
   * nothing written), then `charges` are written and debited as `settle` does.
   */
  async charge(account: Account | string, op: Op, records: number, charges: readonly Charge[], opts: SettleOptions = {}): Promise<SettleResult & { time: string }> {
    const { step, time } = this.chargeStep(account, op, records, charges, opts);
    return settledAt(await this.commits.submit(step) as false | SettleResult, time);
  }

  /**
   * `charge`, after `work` has run on the store's thread (only where `runsWork`): the work's
   * record decides whether `charges` are written (a record that is not chargeable is charged
   * nothing, and the 402 decision is made all the same); answers the charge and the work's result.
   */
  async chargeAfterWork(account: Account | string, op: Op, records: number, charges: readonly Charge[], work: StepWork): Promise<{ settled: SettleResult & { time: string }; result: unknown }> {
    const { step, time } = this.chargeStep(account, op, records, charges, {});
    const r = await this.commits.submitAfterWork(step, work);
    return { settled: settledAt(r.charged, time), result: r.result };
  }

  private chargeStep(account: Account | string, op: Op, records: number, charges: readonly Charge[], opts: SettleOptions): { step: ChargeStep; time: string } {
    const { reservation, row } = newReservation(account, op, records, this.now(), this.leaseMs);
    const { entries, time } = ledgerEntries(reservation, charges, this.now().toISOString());
    return { step: { kind: 'charge', reservation: row, entries, opts }, time };
  }

  /** Gives a reservation back without charging (the run failed). */
  async release(reservation: Reservation): Promise<void> {
    await this.commits.submit({ kind: 'release', reservationId: reservation.id });
  }

  /** Extends the leases of live reservations by one lease from now. */
  renew(reservations: readonly Reservation[]): Promise<number> {
    return this.store.renew(reservations.map((r) => r.id), new Date(this.now().getTime() + this.leaseMs).toISOString());
  }

  /** Releases reservations whose lease ran out (their holder died); live holders renew theirs. */
  releaseExpired(): Promise<number> {
    return this.store.releaseExpired(this.now().toISOString());
  }

  // ---- idempotency keys (HTTP) --------------------------------------------------------------

  async claimIdempotencyKey(accountId: string, key: string, fingerprint: string): Promise<IdempotencyClaim> {
    // a key of ours whose abandon is still owed (an outage) is given back first; taken out of the
    // list before, so that concurrent claims of the key give it back only once
    const id = JSON.stringify([accountId, key]);
    const owed = this.unabandoned.get(id);
    if (owed) {
      this.unabandoned.delete(id);
      if (this.now().getTime() <= owed.until) await this.abandon(accountId, key, owed.until);
    }
    const t = this.now().getTime();
    return this.store.claimIdempotencyKey(accountId, key, fingerprint, new Date(t).toISOString(),
      new Date(t - IDEMPOTENCY_PENDING_MS).toISOString(), new Date(t - IDEMPOTENCY_TTL_MS).toISOString());
  }

  completeIdempotencyKey(accountId: string, key: string, answer: IdempotentAnswer): Promise<void> {
    return this.store.completeIdempotencyKey(accountId, key, answer, this.now().toISOString());
  }

  /**
   * Gives a claimed key back (its request failed and charged nothing). When the store cannot be
   * reached (the outage that failed the request) the key is remembered and given back by
   * `retryAbandons` once the store is back: otherwise its retries would wait for it, then get 409,
   * until it turned stale (IDEMPOTENCY_PENDING_MS). Only a pending key is removed, so a request
   * whose settle did commit keeps its stored answer.
   */
  abandonIdempotencyKey(accountId: string, key: string): Promise<void> {
    // Owed only while no other server may have taken the key over: that may happen
    // IDEMPOTENCY_PENDING_MS after the claim, which came before this call.
    return this.abandon(accountId, key, this.now().getTime() + IDEMPOTENCY_PENDING_MS / 2);
  }

  private async abandon(accountId: string, key: string, until: number): Promise<void> {
    try {
      await this.store.abandonIdempotencyKey(accountId, key);
    } catch (err) {
      if (err instanceof StoreUnavailableError) this.unabandoned.set(JSON.stringify([accountId, key]), { accountId, key, until });
      throw err;
    }
  }

  /**
   * Gives back the keys whose abandon failed while the store was unreachable (see
   * abandonIdempotencyKey); the server calls it whenever it has reached the store. Answers how many.
   */
  async retryAbandons(): Promise<number> {
    let done = 0;
    for (const [id, k] of [...this.unabandoned]) {
      this.unabandoned.delete(id);
      if (this.now().getTime() > k.until) continue; // too late: another claim may have taken it over
      await this.abandon(k.accountId, k.key, k.until); // on failure it is listed again, same deadline
      done++;
    }
    return done;
  }

  /** Forgets answers older than 24 h. */
  sweepIdempotencyKeys(): Promise<number> {
    return this.store.sweepIdempotencyKeys(new Date(this.now().getTime() - IDEMPOTENCY_TTL_MS).toISOString());
  }

  // ---- maintenance --------------------------------------------------------------------------

  getMaintenance(): Promise<boolean> {
    return this.store.getMaintenance();
  }

  setMaintenance(on: boolean): Promise<void> {
    return this.store.setMaintenance(on);
  }
}
