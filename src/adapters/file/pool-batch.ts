/**
 * The job's side of a file batch: the batch sent to the pool as a file-batch task, its byte
 * buffers transferred to the worker (the caller must not use them after).
 */
import type { Op } from '../../contract/params.ts';
import type { EnginePool } from '../../pool/engine-pool.ts';
import { FILE_BATCH, type RawResult, type RawTask } from './worker/batch-task.ts';

export function runFileBatchOnPool(pool: Pick<EnginePool, 'run'>, op: Op, batch: Omit<RawTask, 'kind' | 'op'>): Promise<RawResult> {
  const task: RawTask = { kind: FILE_BATCH, op, ...batch };
  return pool.run<RawResult>(task, [batch.bytes.buffer as ArrayBuffer, batch.bounds.buffer as ArrayBuffer]);
}
