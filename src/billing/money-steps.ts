/**
 * The rows a money step writes: a reservation (a hold of price × records, with its lease) and the
 * ledger entries of the charges settled against it, checked against the reservation's account,
 * function and size.
 */
import type { Op } from '../contract/params.ts';
import { belongsTo } from './ledger-id.ts';
import { priceOf } from './prices.ts';
import { newRequestId } from './request-id.ts';
import type { LedgerEntry, ReservationRow } from './store.ts';

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
  /** Deterministic ledger id (see ledger-id.ts). */
  id: string;
  /** The request id written into the ledger entry. */
  requestid: string;
}

/** A new reservation of `records` of `op` for `account`, and its row, leased `leaseMs` from `now`. */
export function newReservation(
  account: { id: string } | string, op: Op, records: number, now: Date, leaseMs: number,
): { reservation: Reservation; row: ReservationRow } {
  const accountId = typeof account === 'string' ? account : account.id;
  if (!Number.isSafeInteger(records) || records < 0) throw new Error('records must be a whole number ≥ 0');
  const reservation: Reservation = { id: newRequestId(), accountId, op, records, amount: priceOf(op, records) };
  return {
    reservation,
    row: { id: reservation.id, accountId, amount: reservation.amount, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + leaseMs).toISOString() },
  };
}

/** The ledger rows of `charges` against `reservation`, written at `time`. Charges beyond its records or of another account or function are a caller bug. */
export function ledgerEntries(reservation: Reservation, charges: readonly Charge[], time: string): { entries: LedgerEntry[]; time: string } {
  if (charges.length > reservation.records) {
    throw new Error(`settle: ${charges.length} charges for a reservation of ${reservation.records} records`);
  }
  const belongs = belongsTo(reservation.accountId, reservation.op);
  for (const c of charges) {
    if (!belongs(c.id)) {
      throw new Error(`settle: ledger id '${c.id}' does not belong to account ${reservation.accountId} and function ${reservation.op}`);
    }
  }
  const price = priceOf(reservation.op, 1);
  return {
    entries: charges.map((c) => ({ id: c.id, account: reservation.accountId, function: reservation.op, credits: price, requestid: c.requestid, time })),
    time,
  };
}
