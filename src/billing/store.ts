/**
 * The one storage interface of billing. Two implementations: sqlite/ (embedded default) and
 * postgres/ (several server instances sharing one balance). The same contract tests run against
 * both (test/billing/store-contract.ts).
 *
 * Money rules every implementation keeps, each inside ONE database transaction:
 * - reserve: `credits - reserved >= amount` is checked and `reserved += amount` written atomically,
 *   with a reservation row, so that concurrent requests can never together overdraw;
 * - settle: ledger rows are inserted with their caller-given id (`ON CONFLICT DO NOTHING`); only
 *   rows actually inserted are debited, so a replay never charges twice; the whole reservation is
 *   released in the same transaction. A ledger id names its account, function and job
 *   (`<account>/<function>/<job>/<record>`, see src/billing/ledger-id.ts), so only a replay of the
 *   SAME job by the SAME account rides on an earlier row;
 * - a reservation is a lease: its holder renews it while it works; only an expired lease is swept
 *   (a process that died mid-batch), never a live holder's;
 * - schema version (meta `schema_version`): 1 = global ledger ids, reservations by age; 2 = ledger
 *   ids scoped to account/function/job (old rows renamed `<account>/<function>/legacy:<old id>`),
 *   leases, idempotency keys. `init()` migrates in one transaction.
 * - unlimited accounts (credits = -1) are never refused and never debited, but their ledger
 *   entries are written like everyone else's.
 */
import { randomBytes } from 'node:crypto';
import { ServiceError } from '../contract/errors.ts';
import type { Op } from '../contract/params.ts';

export const UNLIMITED = -1;

/**
 * Thrown by any store method when the database cannot be reached (server stopped, connection
 * refused or cut, no connection within the store's timeout). It is the coded 503
 * `ADDR_ERR_STORE_UNAVAILABLE`, so every entrance answers it like any ServiceError; the operation
 * may be retried once the database is back. `cause` keeps the driver's error for the log.
 */
export class StoreUnavailableError extends ServiceError {
  constructor(cause?: Error) {
    super('STORE_UNAVAILABLE');
    if (cause) this.cause = cause;
  }
}

export interface AccountRow {
  /** Public account id (not secret). */
  id: string;
  licenseHash: string;
  guidHash: string;
  /** Balance in credits; -1 = unlimited. */
  credits: number;
  /** Credits held by open reservations. */
  reserved: number;
  agreements: Op[];
  disabled: boolean;
  /** ISO 8601. */
  createdAt: string;
}

export const SCHEMA_VERSION = 2;

export interface LedgerEntry {
  /** `<account>/<function>/<job>/<record>` (src/billing/ledger-id.ts): one account, one function, one job. */
  id: string;
  account: string;
  function: Op;
  credits: number;
  requestid: string;
  /** ISO 8601. */
  time: string;
}

/** Whether two ledger entries differ at most in their id (the entries of one settle, as Billing makes them, do). */
export function alikeButId(a: LedgerEntry, b: LedgerEntry): boolean {
  return a.account === b.account && a.function === b.function && a.credits === b.credits
    && a.requestid === b.requestid && a.time === b.time;
}

export interface ReservationRow {
  id: string;
  accountId: string;
  amount: number;
  createdAt: string;
  /** End of the lease (ISO 8601): the holder renews it; after it, any process may release it. */
  expiresAt: string;
}

/** A stored answer of an HTTP request made with an `Idempotency-Key`. */
export interface IdempotentAnswer {
  status: number;
  contentType: string;
  body: string;
}

export type IdempotencyClaim =
  /** The key is ours now: run the request, then complete (or abandon) it. */
  | { state: 'claimed' }
  /** Another request with this key is running. */
  | { state: 'pending'; fingerprint: string }
  /** Answered before: give this answer again. */
  | { state: 'done'; fingerprint: string; answer: IdempotentAnswer };

export type AccountRef = { id: string } | { guidHash: string } | { licenseHash: string };

export interface SettleResult {
  /** Ledger entries newly written (entries whose id already existed are skipped). */
  written: number;
  /** Their ids. */
  writtenIds: string[];
  /** Credits debited (0 for unlimited accounts). */
  charged: number;
  /** Balance after the debit; -1 for unlimited. */
  credits: number;
}

export interface SettleOptions {
  /**
   * The rows are mirrored elsewhere (the Kafka ledger topic) in a transaction that commits after
   * settle: write them "not yet exported" until their records' range is marked mirrored
   * (`markMirrored`), so that a replay after a crash in between mirrors them (once) although it
   * writes no new row.
   */
  exportLater?: boolean;
  /**
   * An HTTP request with an `Idempotency-Key` (claimed before): its answer is filled in from the
   * balance after this settle (`fillAnswer`) and stored as the key's answer IN THE SAME
   * TRANSACTION, so that a retry after a crash is answered from the store and never charged again.
   * A template, not a function, so that it can cross to the store's thread (sqlite/thread-store.ts).
   */
  answer?: { key: string; template: AnswerTemplate };
}

/**
 * An answer whose body depends on the balance after the settle only (the `availablecredits`
 * fields): the body is `parts` joined by the balance written as a decimal (`String(balance)`).
 */
export interface AnswerTemplate {
  status: number;
  contentType: string;
  parts: string[];
}

/** Stands for the balance while an answer is rendered (`answerTemplate`): random per process, never sent. */
const BALANCE_MARK = `B${randomBytes(16).toString('hex')}`;

/**
 * The template of the answer `render` gives for a balance not yet known: `render` is called once
 * with a mark in place of the balance's decimal text, and its body is cut at each mark.
 */
export function answerTemplate(status: number, render: (balance: string) => { contentType: string; body: string }): AnswerTemplate {
  const r = render(BALANCE_MARK);
  return { status, contentType: r.contentType, parts: r.body.split(BALANCE_MARK) };
}

/** The answer of `template` for `balance` (the store stores it; the server sends the same). */
export function fillAnswer(template: AnswerTemplate, balance: number): IdempotentAnswer {
  return { status: template.status, contentType: template.contentType, body: template.parts.join(String(balance)) };
}

/** One money step of a group commit (`BillingStore.batch`). */
export type MoneyStep =
  | { kind: 'reserve'; reservation: ReservationRow }
  | { kind: 'settle'; reservationId: string; accountId: string; entries: LedgerEntry[]; opts?: SettleOptions }
  | { kind: 'release'; reservationId: string }
  /**
   * A reserve and the settle of that reservation in one step, for work that already ran (an HTTP
   * single record: the engine is pure, so running it before the 402 check shows nothing). The
   * reserve is decided exactly as a `reserve` step; if it fails, nothing is written.
   */
  | { kind: 'charge'; reservation: ReservationRow; entries: LedgerEntry[]; opts?: SettleOptions };

/**
 * What a step answers: as `reserve` (boolean), `settle` (SettleResult) or `release` (undefined);
 * a `charge` answers false (the reserve failed: 402) or its settle's SettleResult.
 */
export type MoneyStepResult = boolean | SettleResult | undefined;

/**
 * Work that a store's own thread runs just before the transaction of a `charge` step (issue 20:
 * an HTTP single lookup, run where its charge commits, crosses one thread boundary instead of
 * two; sqlite/thread-work.ts). The task is the caller's, opaque here; the work answers its result
 * and whether the record is chargeable. A charge whose record is not chargeable writes no ledger
 * row and debits nothing, and its 402 decision is made all the same.
 */
export interface StepWork {
  task: unknown;
}

/** A charge step's answer when it carried work: the charge's (false: 402) and the work's result. */
export interface WorkedCharge {
  charged: false | SettleResult;
  result: unknown;
}

export interface BillingStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Creates the schema if needed and returns the per-install pepper (created on first call). */
  init(): Promise<string>;
  close(): Promise<void>;

  createAccount(row: AccountRow): Promise<void>;
  findAccount(ref: AccountRef): Promise<AccountRow | undefined>;
  /** Adds credits (or sets unlimited when `credits` is -1; a positive top-up of an unlimited account keeps it unlimited). */
  topup(accountId: string, credits: number): Promise<AccountRow | undefined>;
  setAgreements(accountId: string, agreements: Op[]): Promise<AccountRow | undefined>;
  setDisabled(accountId: string, disabled: boolean): Promise<AccountRow | undefined>;

  /** Holds `amount` credits. Returns false (and changes nothing) when the balance is too low. */
  reserve(reservation: ReservationRow): Promise<boolean>;
  /**
   * Writes the ledger entries not yet written, debits their credits and releases the whole
   * reservation, atomically. Idempotent on entry ids. Throws if the reservation is unknown and
   * an entry would be newly charged (nothing is written then).
   */
  settle(reservationId: string, accountId: string, entries: LedgerEntry[], opts?: SettleOptions): Promise<SettleResult>;
  /** Releases a reservation without charging. Unknown ids are ignored. */
  release(reservationId: string): Promise<void>;
  /**
   * Group commit: the steps in order in ONE transaction (one commit, one WAL write or fsync for
   * all), each answered exactly as its own method would answer it, each seeing the steps before
   * it (so a reserve is decided against the balance net of every reservation, the batch's
   * included). If any step throws, nothing is written and the error is thrown: the caller then
   * runs the steps one by one to tell which failed.
   */
  batch(steps: readonly MoneyStep[]): Promise<MoneyStepResult[]>;
  /**
   * Only a store whose thread runs work (`runsWork`): as `batch`, where the steps with work (each
   * a `charge`) first run it, and answer a WorkedCharge.
   */
  readonly runsWork?: boolean;
  batchAfterWork?(steps: readonly MoneyStep[], works: ReadonlyArray<StepWork | undefined>): Promise<Array<MoneyStepResult | WorkedCharge>>;
  /** Extends the leases of these reservations to `expiresAt`; answers how many still exist. */
  renew(reservationIds: readonly string[], expiresAt: string): Promise<number>;
  /** Releases reservations whose lease ended before `now` (ISO 8601): their holder died. */
  releaseExpired(now: string): Promise<number>;

  ledger(accountId: string, limit?: number): Promise<LedgerEntry[]>;
  ledgerCount(accountId: string): Promise<number>;
  /** The entry `id` of `accountId` (an id of another account is not found). */
  ledgerEntry(accountId: string, id: string): Promise<LedgerEntry | undefined>;
  /**
   * The rows among `ids` of the account that were settled with `exportLater` and whose mirror never
   * committed: not in a range marked mirrored (ledger-id.ts, `mirrorPlace`), in no particular order.
   */
  unexported(accountId: string, ids: readonly string[]): Promise<LedgerEntry[]>;
  /**
   * The records [from, to) of `scope` (`<job>/<partition>` and offsets on Kafka) were committed
   * with their mirror: every row of the account in that range, of any function, counts as
   * exported from now on. One row per scope while the ranges follow on from each other (a
   * partition's committed offsets), instead of an update per ledger row (issue 20).
   */
  markMirrored(accountId: string, scope: string, from: bigint, to: bigint): Promise<void>;
  /** Which of `ids` the account's ledger already holds. */
  ledgerIdsPresent(accountId: string, ids: readonly string[]): Promise<Set<string>>;

  /**
   * Claims `key` of `accountId` for a request with `fingerprint`, atomically: a key unknown, or
   * pending since before `staleBefore` (its server died), becomes ours; otherwise the current
   * state is answered. Keys answered before `expiredBefore` count as unknown.
   */
  claimIdempotencyKey(accountId: string, key: string, fingerprint: string, now: string, staleBefore: string, expiredBefore: string): Promise<IdempotencyClaim>;
  /** Stores the answer of a claimed key. */
  completeIdempotencyKey(accountId: string, key: string, answer: IdempotentAnswer, now: string): Promise<void>;
  /** Gives a claimed key up (the request ended without an answer worth repeating). */
  abandonIdempotencyKey(accountId: string, key: string): Promise<void>;
  /** Deletes keys created before `before`; answers how many. */
  sweepIdempotencyKeys(before: string): Promise<number>;

  getMaintenance(): Promise<boolean>;
  setMaintenance(on: boolean): Promise<void>;
}
