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
 *   released in the same transaction;
 * - unlimited accounts (credits = -1) are never refused and never debited, but their ledger
 *   entries are written like everyone else's.
 */
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

export interface LedgerEntry {
  /** Deterministic id given by the caller: `requestid/index`, `file-identity/line`, `topic/partition/offset`. */
  id: string;
  account: string;
  function: Op;
  credits: number;
  requestid: string;
  /** ISO 8601. */
  time: string;
}

export interface ReservationRow {
  id: string;
  accountId: string;
  amount: number;
  createdAt: string;
}

export type AccountRef = { id: string } | { guidHash: string } | { licenseHash: string };

export interface SettleResult {
  /** Ledger entries newly written (entries whose id already existed are skipped). */
  written: number;
  /** Credits debited (0 for unlimited accounts). */
  charged: number;
  /** Balance after the debit; -1 for unlimited. */
  credits: number;
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
  settle(reservationId: string, accountId: string, entries: LedgerEntry[]): Promise<SettleResult>;
  /** Releases a reservation without charging. Unknown ids are ignored. */
  release(reservationId: string): Promise<void>;
  /** Releases reservations older than `before` (ISO 8601), left behind by a crashed process. */
  releaseStale(before: string): Promise<number>;

  ledger(accountId: string, limit?: number): Promise<LedgerEntry[]>;
  ledgerCount(accountId: string): Promise<number>;
  ledgerEntry(id: string): Promise<LedgerEntry | undefined>;

  getMaintenance(): Promise<boolean>;
  setMaintenance(on: boolean): Promise<void>;
}
