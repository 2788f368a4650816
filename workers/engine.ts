/**
 * The engine pool's worker entry point, and the composition root of what a worker does: it
 * dispatches each task by its kind, to the pool's own `validated` and `warm-up` tasks or to the handler an
 * adapter registers here (the file job's batches of raw records, the Kafka worker's results). The pool itself imports no
 * adapter; it names this file by URL (src/pool/engine-pool.ts).
 *
 * A worker opens the shared address index once (a view over the SharedArrayBuffer the main
 * thread passed in workerData, never a copy). A file-batch result's output bytes and per-record
 * summary arrays, and a Kafka results task's values, travel back transferred, not copied.
 */
import { createRequire } from 'node:module';
import { isMainThread, workerData } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { runValidatedTask } from '../src/pool/run-validated.ts';
import type { PoolTask, ValidatedTask, WarmUpTask, WorkerState } from '../src/pool/tasks.ts';
import { warmUp } from '../src/pool/warm-up.ts';
import { FILE_BATCH, type RawTask } from '../src/adapters/file/worker/batch-task.ts';
import { fileBatchTransferables, runFileBatch } from '../src/adapters/file/worker/run-file-batch.ts';
import { KAFKA_RESULTS } from '../src/adapters/kafka/results-task-kind.ts';
import type * as KafkaResults from '../src/adapters/kafka/results-task.ts';
import { createWorkerState } from '../src/pool/worker-state.ts';

export { createWorkerState };

/**
 * The Kafka worker's results task, loaded (synchronously) on a thread's first such task: the
 * threads of a file job or of the HTTP service never load it and Avro with it (about 35 ms of a
 * thread's start).
 */
let kafkaResults: typeof KafkaResults | undefined;
function kafka(): typeof KafkaResults {
  return (kafkaResults ??= createRequire(import.meta.url)('../src/adapters/kafka/results-task.ts') as typeof KafkaResults);
}

/** One task, by kind; also what the pool runs in-process (`threads: 0`), with the same behaviour. */
export function runTask(state: WorkerState, task: PoolTask): unknown {
  switch (task.kind) {
    case 'validated':
      return runValidatedTask(state, task as ValidatedTask);
    case 'warm-up':
      return warmUp(state, (task as WarmUpTask).ops, (task as WarmUpTask).ms);
    case FILE_BATCH:
      return runFileBatch(state, task as RawTask);
    case KAFKA_RESULTS:
      return kafka().runResultsTask(state, task as KafkaResults.ResultsTask);
    default:
      throw new Error(`unknown pool task kind '${task.kind}'`);
  }
}

// A worker thread's state; none when this module is imported in-process by the pool.
const state: WorkerState | undefined = isMainThread
  ? undefined
  : createWorkerState((workerData as { indexBuffer?: SharedArrayBuffer } | undefined)?.indexBuffer);

export default function run(task: PoolTask) {
  const result = runTask(state!, task);
  const transfer = task.kind === FILE_BATCH ? fileBatchTransferables(result as never)
    : task.kind === KAFKA_RESULTS ? kafka().resultsTransferables(result as KafkaResults.ResultsOfTask) : undefined;
  if (!transfer) return result;
  return Piscina.move({
    [Piscina.transferableSymbol]: transfer,
    [Piscina.valueSymbol]: result,
  } as unknown as ArrayBuffer);
}
