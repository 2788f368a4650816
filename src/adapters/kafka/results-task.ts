/**
 * A slice's engine work AND its result values, in the engine threads (issue 20): the Kafka
 * worker's main thread carried the Avro encoding of every result and the structured clone of
 * every outcome back from the pool; now a thread runs the engine on its part of the slice and
 * encodes the results there, and sends back one byte buffer (moved, not copied) with the values
 * back to back, a chargeable flag per element, and only the outcomes the main thread still needs:
 *  - an engine failure (500): a DLQ record, never a result;
 *  - a result that asks for `returnavailablecredits`: its value carries the balance after the
 *    settle, so it is encoded on the main thread after the settle, as before.
 * The bytes are those `resultMessage` writes on the main thread (results-task.test.ts).
 *
 * The task is registered in workers/engine.ts (the threads' composition root); the pool carries it
 * without knowing what is inside.
 */
import { ERRORS } from '../../contract/errors.ts';
import type { Op } from '../../contract/params.ts';
import type { ValidElement } from '../../contract/validate.ts';
import type { Outcome } from '../../engine/process.ts';
import type { EnginePool } from '../../pool/engine-pool.ts';
import { runValidatedTask } from '../../pool/run-validated.ts';
import { splitRanges } from '../../pool/split.ts';
import type { PoolTask, WorkerState } from '../../pool/tasks.ts';
import { createValueCodec, type RegistryIds, type ValueCodec } from './avro/codec.ts';
import { loadSchemas } from './avro/schemas.ts';
import { resultObject, resultValue, type OutputFormat } from './output-messages.ts';

/** The task kind workers/engine.ts dispatches to runResultsTask. */
export const KAFKA_RESULTS = 'kafka-results';

/** The codec of the worker, as a thread makes it again (schemas directory + registry ids). */
export interface CodecSpec {
  schemasDir: string;
  registryIds: RegistryIds;
}

export interface ResultsTask extends PoolTask {
  kind: typeof KAFKA_RESULTS;
  op: Op;
  elements: ValidElement[];
  format: OutputFormat;
  /** Written into results that ask for `requestproof` (the worker's meter). */
  requestid: string;
  codec: CodecSpec;
}

export interface ResultsOfTask {
  /** The encoded values back to back: element i's is bytes[ends[i-1] (0 for i = 0), ends[i]); empty when kept. */
  bytes: Uint8Array;
  ends: Uint32Array;
  /** 1 where the element's outcome is chargeable. */
  chargeable: Uint8Array;
  /** [index, outcome] of the elements not encoded here (engine failure, or a result that carries the balance). */
  kept: Array<[number, Outcome]>;
}

const INTERNAL_STATUS = ERRORS.INTERNAL.status;

/** Encoded later on the main thread (or not a result at all). */
export function keptOnMainThread(o: Outcome): boolean {
  return o.ok ? o.options.returnavailablecredits === true : o.error.errorcode === INTERNAL_STATUS;
}

const codecs = new Map<string, ValueCodec>();

function codecOf(spec: CodecSpec): ValueCodec {
  const key = JSON.stringify(spec);
  let c = codecs.get(key);
  if (!c) codecs.set(key, (c = createValueCodec({ schemas: loadSchemas(spec.schemasDir), registryIds: spec.registryIds })));
  return c;
}

/** In a worker thread (or in-process with `threads: 0`). */
export function runResultsTask(state: WorkerState, task: ResultsTask): ResultsOfTask {
  const { outcomes } = runValidatedTask(state, { kind: 'validated', op: task.op, elements: task.elements });
  return encodeResults(outcomes, codecOf(task.codec), task);
}

/** The outcomes' values back to back, their chargeable flags, and the outcomes kept for the main thread. */
function encodeResults(outcomes: readonly Outcome[], codec: ValueCodec, t: { op: Op; format: OutputFormat; requestid: string }): ResultsOfTask {
  const n = outcomes.length;
  const values: Buffer[] = [];
  const ends = new Uint32Array(n);
  const chargeable = new Uint8Array(n);
  const kept: Array<[number, Outcome]> = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const o = outcomes[i]!;
    if (o.ok && o.chargeable) chargeable[i] = 1;
    if (keptOnMainThread(o)) {
      kept.push([i, o]);
    } else {
      const v = resultValue(codec, t.format, t.op, resultObject(t.op, o, t.requestid, undefined));
      values.push(v);
      at += v.length;
    }
    ends[i] = at;
  }
  // a buffer of its own (never a slice of Node's shared pool), so that it can be moved
  const bytes = new Uint8Array(at);
  let pos = 0;
  for (const v of values) {
    bytes.set(v, pos);
    pos += v.length;
  }
  return { bytes, ends, chargeable, kept };
}

/** What a result task's answer moves back to the main thread. */
export function resultsTransferables(r: ResultsOfTask): ArrayBuffer[] {
  return [r.bytes.buffer, r.ends.buffer, r.chargeable.buffer] as ArrayBuffer[];
}

/** Per element of a slice's op: the encoded value, or the outcome kept for the main thread; and whether it is chargeable. */
export interface SliceResults {
  values: Array<Buffer | undefined>;
  kept: Array<Outcome | undefined>;
  chargeable: boolean[];
}

/** Runs `elements` of `op` on the pool's threads (split as the pool splits a validated batch), results encoded there. */
export async function runResults(
  pool: EnginePool, op: Op, elements: ValidElement[], o: { format: OutputFormat; requestid: string; codec: ValueCodec },
): Promise<SliceResults> {
  const out: SliceResults = { values: new Array(elements.length), kept: new Array(elements.length), chargeable: new Array<boolean>(elements.length).fill(false) };
  const collect = (from: number, r: ResultsOfTask): void => {
    const bytes = Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
    const kept = new Map(r.kept);
    for (let i = 0; i < r.ends.length; i++) {
      out.chargeable[from + i] = r.chargeable[i] === 1;
      const k = kept.get(i);
      if (k) out.kept[from + i] = k;
      else out.values[from + i] = bytes.subarray(i === 0 ? 0 : r.ends[i - 1]!, r.ends[i]!);
    }
  };
  const spec: CodecSpec = { schemasDir: o.codec.schemas.dir, registryIds: o.codec.registryIds };
  await Promise.all(splitRanges(elements.length, pool.threads).map(async ([from, to]) => {
    const task: ResultsTask = {
      kind: KAFKA_RESULTS, op, format: o.format, requestid: o.requestid, codec: spec,
      elements: from === 0 && to === elements.length ? elements : elements.slice(from, to),
    };
    collect(from, await pool.run<ResultsOfTask>(task));
  }));
  return out;
}
