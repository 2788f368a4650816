/**
 * The money steps as they cross to the SQLite store's thread and back (thread-store.ts ⇄
 * store-thread.ts), packed. A settle or a charge carries one ledger entry per charged record, and
 * the entries of one step differ only in their id (Billing builds them from one reservation, one
 * request id, one time); its answer names every row written. Cloned as they are, that is an object
 * of six fields per record on the way in and every id again on the way back — for a Kafka slice of
 * 2,000 records, 2,000 objects serialised on the caller's event loop and 2,000 strings made again
 * there. Packed, a step carries the shared fields once with the ids, and its answer the positions
 * of the rows written among its entries (or "all of them"). The store sees the same steps and
 * answers the same results (packed-steps.test.ts).
 */
import type { LedgerEntry, MoneyStep, MoneyStepResult, SettleResult, WorkedCharge } from '../store.ts';
import { sharedFields, type Shared } from './ledger-rows.ts';

/** The thread's call that takes packed steps: `batch` packed (SqliteThreadStore.batch sends it). */
export const BATCH_PACKED = 'batchPacked';
/** The same, after the works of some steps (`batchAfterWork`; thread-work.ts). */
export const BATCH_AFTER_WORK = 'batchAfterWork';

/** A settle or a charge: the steps that carry entries. */
type EntryStep = Extract<MoneyStep, { entries: LedgerEntry[] }>;

export type PackedStep = MoneyStep | { packed: Omit<EntryStep, 'entries'>; shared: Shared; ids: string[] };

/** A packed settle's or charge's answer: the written rows by their position among the step's entries (`all`: every one). */
export type PackedResult = MoneyStepResult | { packed: Omit<SettleResult, 'writtenIds'>; all: true } | { packed: Omit<SettleResult, 'writtenIds'>; at: Uint32Array };

/** The caller's side: a step as it is sent. */
export function packStep(s: MoneyStep): PackedStep {
  if (s.kind !== 'settle' && s.kind !== 'charge') return s;
  const shared = sharedFields(s.entries);
  if (!shared) return s;
  const { entries, ...rest } = s;
  return { packed: rest, shared, ids: entries.map((e) => e.id) };
}

/** The thread's side: the step as the store takes it. */
export function unpackStep(p: PackedStep): MoneyStep {
  if (!('packed' in p)) return p;
  const { shared, ids } = p;
  return { ...p.packed, entries: ids.map((id) => ({ id, ...shared })) } as MoneyStep;
}

/** The thread's side: a step's answer as it is sent back. */
export function packResult(step: PackedStep, r: MoneyStepResult): PackedResult {
  if (!('packed' in step) || typeof r !== 'object') return r;
  const { writtenIds, ...rest } = r;
  if (writtenIds.length === step.ids.length) return { packed: rest, all: true };
  // the store writes in entry order: the written ids are a subsequence of the step's
  const at = new Uint32Array(writtenIds.length);
  let j = 0;
  for (let i = 0; i < step.ids.length && j < writtenIds.length; i++) if (step.ids[i] === writtenIds[j]) at[j++] = i;
  if (j < writtenIds.length) return r; // not in entry order after all: the ids as they are
  return { packed: rest, at };
}

/** A step's answer after work: the charge's answer packed, with the work's result. */
export type PackedWorkResult = PackedResult | { worked: PackedResult; result: unknown };

/** The caller's side of a batch after work: as unpackResult, a worked step's as a WorkedCharge. */
export function unpackWorkResult(step: MoneyStep, r: PackedWorkResult): MoneyStepResult | WorkedCharge {
  if (r === null || typeof r !== 'object' || !('worked' in r)) return unpackResult(step, r);
  return { charged: unpackResult(step, r.worked) as WorkedCharge['charged'], result: r.result };
}

/** The caller's side: the answer as the store would have given it. */
export function unpackResult(step: MoneyStep, r: PackedResult): MoneyStepResult {
  if (r === null || typeof r !== 'object' || !('packed' in r)) return r;
  const entries = (step as EntryStep).entries;
  const writtenIds = 'all' in r ? entries.map((e) => e.id) : Array.from(r.at, (i) => entries[i]!.id);
  return { ...r.packed, writtenIds };
}
