/**
 * Ledger ids: one account, one function, one job, one record, and the id says so:
 *
 *   <account id>/<function>/<job>/<record>
 *
 * - HTTP:  job `http:<requestid>` (the request), record = the element's index (0 in single mode);
 * - file:  job `file:<job id>` (one run of a file: a UUIDv7 written in the checkpoint before the
 *          first record is charged; `--resume` continues it), record = line or element number;
 * - Kafka: job `kafka:<topic id>:<consumer group>` (the topic's UUID from the cluster metadata,
 *          so a recreated topic is a new job; the group percent-encoded), record =
 *          `<partition>/<offset>`.
 *
 * Settling an id that is already in the ledger charges nothing: only the SAME job of the SAME
 * account and function replaying the SAME record (a crash, an offset reset, a resume) is free.
 * Ledgers of schema version 1 held global ids; they are renamed
 * `<account>/<function>/legacy:<old id>` by the store's migration (docs/http.md).
 */
import type { Op } from '../contract/params.ts';

export type JobIdentity =
  | { kind: 'http'; requestid: string }
  | { kind: 'file'; jobId: string }
  | { kind: 'kafka'; topicId: string; group: string };

/** The job part of a ledger id. */
export function jobKey(job: JobIdentity): string {
  switch (job.kind) {
    case 'http': return `http:${job.requestid}`;
    case 'file': return `file:${job.jobId}`;
    case 'kafka': return `kafka:${job.topicId}:${encodeURIComponent(job.group)}`;
  }
}

export function ledgerId(accountId: string, op: Op, job: JobIdentity | string, record: string | number): string {
  return `${accountId}/${op}/${typeof job === 'string' ? job : jobKey(job)}/${record}`;
}

/** Whether an id is a ledger id of this account and function (settle refuses any other); the prefix made once. */
export function belongsTo(accountId: string, op: Op): (id: string) => boolean {
  const prefix = `${accountId}/${op}/`;
  return (id) => id.startsWith(prefix);
}

/** A ledger id's place among its job's mirrored ranges (BillingStore.markMirrored). */
export interface MirrorPlace {
  /** The job and the record's leading parts: `<job>/<partition>` for a Kafka record. */
  scope: string;
  /** The record's last part, a whole number: a Kafka record's offset. */
  position: bigint;
}

/**
 * Where ledger id `id` of `accountId` sits among the mirrored ranges: its scope (the id without
 * the account, the function and the record's last part) and position (that last part). A record
 * whose last part is not a whole number has no place (never in a mirrored range).
 */
export function mirrorPlace(id: string, accountId: string): MirrorPlace | undefined {
  const prefix = `${accountId}/`;
  if (!id.startsWith(prefix)) return undefined;
  const afterFunction = id.indexOf('/', prefix.length);
  const last = id.lastIndexOf('/');
  if (afterFunction < 0 || last <= afterFunction) return undefined;
  const position = id.slice(last + 1);
  if (!/^\d{1,19}$/.test(position)) return undefined;
  return { scope: id.slice(afterFunction + 1, last), position: BigInt(position) };
}

/** A mirrored range as the stores keep it: positions [from, to) of a scope. */
export interface MirroredRange {
  scope: string;
  from: bigint;
  to: bigint;
}

/** The rows among `rows` (of `accountId`) that no range in `ranges` holds: their mirror never committed. */
export function outsideMirrored<R extends { id: string }>(rows: readonly R[], accountId: string, ranges: readonly MirroredRange[]): R[] {
  if (ranges.length === 0) return [...rows];
  return rows.filter((r) => {
    const at = mirrorPlace(r.id, accountId);
    return !at || !ranges.some((g) => g.scope === at.scope && g.from <= at.position && at.position < g.to);
  });
}

/** The distinct scopes of `ids` (the ranges a store reads for `unexported`). */
export function mirrorScopes(ids: readonly string[], accountId: string): string[] {
  const scopes = new Set<string>();
  for (const id of ids) {
    const at = mirrorPlace(id, accountId);
    if (at) scopes.add(at.scope);
  }
  return [...scopes];
}
