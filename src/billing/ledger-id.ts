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

/** Whether `id` is a ledger id of this account and function (settle refuses any other). */
export function belongsTo(id: string, accountId: string, op: Op): boolean {
  return id.startsWith(`${accountId}/${op}/`);
}
