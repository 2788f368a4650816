/**
 * What the meter (meter.ts) takes and answers — items, holds, settles — and how it finds the
 * prefix of a run that the balance covers. Apart from meter.ts so that the meter stays one module
 * of one job (its flow) and under the house's size rule; meter.ts re-exports the types.
 */
import type { Op } from '../contract/params.ts';
import type { Charge, Reservation } from './billing.ts';
import type { JobIdentity } from './ledger-id.ts';
import { PRICES } from './prices.ts';
import type { AnswerTemplate, LedgerEntry } from './store.ts';

export interface MeterItem {
  /** The function to charge; undefined for an item that costs nothing (rejected, refused, undecodable). */
  op: Op | undefined;
  /** The record within the job: HTTP element index, file line/element number, Kafka `partition/offset`. */
  record: string | number;
}

export interface Hold {
  /** Items [0, covered) may run; the rest wait for credits. */
  readonly covered: number;
  readonly items: readonly MeterItem[];
  /** Ledger id of each charged item (undefined for free ones). */
  readonly ids: ReadonlyArray<string | undefined>;
  /** Indices of items this job already charged: run, never charged again. */
  readonly prepaid: ReadonlySet<number>;
  /** @internal open reservations, per function */
  readonly reservations: Map<Op, Reservation>;
}

export interface Settled {
  /** Credits charged now (unlimited accounts: the entries' price too, as for the ledger). */
  credits: number;
  /** Ledger rows written now, in item order. */
  entries: LedgerEntry[];
  /** Per item of [0, covered): whether a ledger row was written now for it. */
  written: boolean[];
  /**
   * With `exportLater`: rows this job wrote in an earlier attempt at these items whose mirror
   * never committed (a crash between settle and the Kafka commit). Mirror them now, with `entries`.
   */
  unexported: LedgerEntry[];
  /** Balance after the debit (-1 = unlimited), or undefined when nothing was settled. */
  balance: number | undefined;
}

export interface SettleOpts {
  /** The ledger rows are mirrored (Kafka ledger topic) after settle; see BillingStore SettleOptions. */
  exportLater?: boolean;
  /**
   * HTTP with an Idempotency-Key: the request's answer, filled in from the balance after the
   * debit, is stored with the settle, in one transaction (BillingStore SettleOptions). Stored
   * only when the hold has a reservation to settle (then `Settled.balance` is defined).
   */
  answer?: { key: string; template: AnswerTemplate };
}

export interface HoldOptions {
  /**
   * true (file jobs, Kafka): cover the longest prefix the balance pays for (maybe none);
   * false (HTTP): cover every item or throw 402 with nothing held.
   */
  partial: boolean;
}

export interface OpenOptions {
  /** The job of the ledger ids; a Kafka worker binds it later (`bindJob`), once it knows it. */
  job?: JobIdentity;
  /** Release the reservations a killed process left behind (long jobs, at their start). */
  sweep?: boolean;
}

/** Charged, not prepaid items of [0, end), per function. */
export function countByOp(items: readonly MeterItem[], prepaid: ReadonlySet<number>, end: number): Map<Op, number> {
  const counts = new Map<Op, number>();
  for (let i = 0; i < end; i++) {
    const op = items[i]!.op;
    if (op && !prepaid.has(i)) counts.set(op, (counts.get(op) ?? 0) + 1);
  }
  return counts;
}

/** The longest prefix whose charged, not prepaid items cost at most `credits`. */
export function walk(items: readonly MeterItem[], prepaid: ReadonlySet<number>, credits: number): number {
  let left = credits;
  let i = 0;
  for (; i < items.length; i++) {
    const op = items[i]!.op;
    if (!op || prepaid.has(i)) continue;
    if (left < PRICES[op]) break;
    left -= PRICES[op];
  }
  return i;
}

/**
 * The items' positions of the rows a store wrote, in item order: `writtenIds` among `charges`
 * (whose items are at `at`). The stores answer them in the order they were given (a subsequence
 * of the charges), so one walk finds them; any other order is taken too, by id.
 */
export function writtenPositions(charges: readonly Charge[], at: readonly number[], writtenIds: readonly string[]): number[] {
  const positions: number[] = [];
  let j = 0;
  for (const id of writtenIds) {
    while (j < charges.length && charges[j]!.id !== id) j++;
    if (j === charges.length) {
      const byId = new Map(charges.map((c, k) => [c.id, at[k]!]));
      return writtenIds.map((w) => byId.get(w)!).sort((a, b) => a - b);
    }
    positions.push(at[j++]!);
  }
  return positions;
}

/** A settle that wrote nothing, over `covered` items. */
export function nothing(covered: number): Settled {
  return { credits: 0, entries: [], written: new Array<boolean>(covered).fill(false), unexported: [], balance: undefined };
}
