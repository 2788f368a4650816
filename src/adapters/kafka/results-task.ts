/**
 * A slice's records from their input bytes to their result values, in the engine threads
 * (issue 20). The Kafka worker's main thread was the bottleneck; it now sends a thread the raw
 * input values of its part of a slice (one buffer, moved, not copied, with their ends), and the
 * thread decodes each value, validates it, runs the engine and encodes the result. Back comes one
 * buffer of result values (moved) and, per record, what the main thread still decides on:
 *  - its kind: undecodable (a DLQ record; the reason comes back too), free (a result that is an
 *    error answer: refused op, not valid UTF-8, not a valid element — never charged, holds no
 *    credits), or valid (holds credits; the meter decides whether it runs in this slice);
 *  - its op and whether its outcome is chargeable;
 *  - the outcomes not encoded here: an engine failure (500: a DLQ record, never a result) and a
 *    result that asks for `returnavailablecredits` (its value carries the balance after the
 *    settle, so it is encoded on the main thread after the settle, as before);
 *  - the element's own `correlationid` (the main thread prefers the header, as correlationIdOf).
 * The engine is pure: running it before the credits are held shows nothing to anyone; the main
 * thread holds and settles exactly the valid records the balance covers, and writes only theirs.
 * The bytes are those the main thread wrote before (results-task.test.ts).
 *
 * The task is registered in workers/engine.ts (the threads' composition root); the pool carries it
 * without knowing what is inside.
 */
import { ERRORS, type ErrorBody } from '../../contract/errors.ts';
import { OPS, type Op } from '../../contract/params.ts';
import { validateElement, type ElementDefaults } from '../../contract/validate.ts';
import { setExplain, type Outcome } from '../../engine/process.ts';
import type { EnginePool } from '../../pool/engine-pool.ts';
import { runValidatedElement } from '../../pool/run-validated.ts';
import { splitRanges } from '../../pool/split.ts';
import type { PoolTask, WorkerState } from '../../pool/tasks.ts';
import { createValueCodec, type RegistryIds, type ValueCodec } from './avro/codec.ts';
import { loadSchemas } from './avro/schemas.ts';
import { resultObject, resultValue, type OutputFormat } from './output-messages.ts';
import { decodeStreamRecord } from './stream-record.ts';
import { KAFKA_RESULTS } from './results-task-kind.ts';

/** The task kind workers/engine.ts dispatches to runResultsTask. */
export { KAFKA_RESULTS };

/** The codec of the worker, as a thread makes it again (schemas directory + registry ids). */
export interface CodecSpec {
  schemasDir: string;
  registryIds: RegistryIds;
}

/** How a slice's records are decoded and validated: the worker's options, as plain data. */
export interface RecordRules {
  /** `--op`: the only op the worker accepts. */
  op?: Op;
  /** `--prefer-country` and the like. */
  defaults?: ElementDefaults;
  /** `--explain`: decides for every search record (an element's own `explain` key does not). */
  explain: boolean;
  /** Ops the account may not use, with the error result of their records (Meter.refusal). */
  refused: Array<[Op, ErrorBody]>;
  format: OutputFormat;
  /** Written into results that ask for `requestproof` (the worker's meter). */
  requestid: string;
  codec: CodecSpec;
}

export interface ResultsTask extends PoolTask, RecordRules {
  kind: typeof KAFKA_RESULTS;
  /** The input values back to back: record i's is values[ends[i-1] (0 for i = 0), ends[i]). */
  values: Uint8Array;
  ends: Uint32Array;
  /** 1 where the record has no value at all (a tombstone). */
  absent: Uint8Array;
}

/** A record's kind in ResultsOfTask.kinds. */
export const RECORD = { undecodable: 0, free: 1, valid: 2 } as const;

export interface ResultsOfTask {
  /** RECORD.* per record. */
  kinds: Uint8Array;
  /** Index into OPS of each element's op (undecodable records: 0, meaningless). */
  ops: Uint8Array;
  /** 1 where the record's outcome is chargeable. */
  chargeable: Uint8Array;
  /** The encoded result values back to back, as `values`/`ends` of the task; empty when none is encoded here. */
  bytes: Uint8Array;
  ends: Uint32Array;
  /** [index, outcome] of the valid records not encoded here (engine failure, or a result that carries the balance). */
  kept: Array<[number, Outcome]>;
  /** [index, code, reason] of the undecodable records. */
  undecodable: Array<[number, string, string]>;
  /** [index, the element's `correlationid`] where the element has one. */
  correlationIds: Array<[number, string]>;
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

/**
 * In a worker thread (or in-process with `threads: 0`). One record at a time, from its bytes to
 * its result's bytes: what a record allocates (its decoded value, element, outcome and result
 * object) is garbage before the next record starts, so a task of thousands of records never holds
 * them all, and V8's young-generation collections find them dead instead of copying and promoting
 * them (issue 20: that copying was a tenth of the worker's CPU).
 */
export function runResultsTask(state: WorkerState, task: ResultsTask): ResultsOfTask {
  const codec = codecOf(task.codec);
  const n = task.ends.length;
  const refused = new Map(task.refused);
  const input = Buffer.from(task.values.buffer, task.values.byteOffset, task.values.byteLength);
  const out: ResultsOfTask = {
    kinds: new Uint8Array(n), ops: new Uint8Array(n), chargeable: new Uint8Array(n), bytes: new Uint8Array(0), ends: new Uint32Array(n),
    kept: [], undecodable: [], correlationIds: [],
  };
  const values = new ValueBytes(task.values.byteLength + 16 * n);
  for (let i = 0; i < n; i++) {
    const value = task.absent[i] ? null : input.subarray(i === 0 ? 0 : task.ends[i - 1]!, task.ends[i]!);
    const r = decodeStreamRecord(codec, { offset: '', key: null, value }, task.op);
    if (r.kind === 'undecodable') {
      out.undecodable.push([i, r.code, r.reason]);
    } else {
      out.ops[i] = OPS.indexOf(r.op);
      if (r.correlationId !== undefined) out.correlationIds.push([i, r.correlationId]);
      const o = outcomeOf(state, task, refused.get(r.op) ?? r.rejected, r.op, r.element);
      out.kinds[i] = o.valid ? RECORD.valid : RECORD.free;
      if (o.outcome.ok && o.outcome.chargeable) out.chargeable[i] = 1;
      if (o.valid && keptOnMainThread(o.outcome)) out.kept.push([i, o.outcome]);
      else values.append(resultValue(codec, task.format, r.op, resultObject(r.op, o.outcome, task.requestid, undefined)));
    }
    out.ends[i] = values.length;
  }
  out.bytes = values.taken();
  return out;
}

/**
 * A decoded record's outcome: its error result when it was refused or rejected or does not
 * validate (never charged, holds no credits), else the engine's (each element validated once, here).
 */
function outcomeOf(
  state: WorkerState, rules: RecordRules, error: ErrorBody | undefined, op: Op, element: Record<string, unknown>,
): { valid: boolean; outcome: Outcome } {
  if (error) return { valid: false, outcome: { ok: false, error } };
  const v = validateElement(op, element, rules.defaults);
  if (!v.ok) return { valid: false, outcome: { ok: false, error: v.error } };
  if (op === 'search') setExplain(v.options, rules.explain);
  return { valid: true, outcome: runValidatedElement(state, op, v) };
}

/** Byte strings appended back to back into one buffer of its own (to be moved), grown by doubling. */
class ValueBytes {
  private bytes: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(1024, capacity));
  }

  append(v: Uint8Array): void {
    if (this.length + v.length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + v.length));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(v, this.length);
    this.length += v.length;
  }

  /** The bytes appended (a view of the buffer, which moves with it). */
  taken(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/**
 * Byte strings back to back in one buffer of its own (never a slice of Node's shared pool, so that
 * it can be moved to another thread), with their ends: item i is bytes[ends[i-1] (0 for i = 0),
 * ends[i]); an item that is missing takes no bytes. The shape of a results task's input values and
 * of its answer's result values.
 */
function backToBack(n: number, item: (i: number) => Uint8Array | null | undefined): { bytes: Uint8Array; ends: Uint32Array } {
  const ends = new Uint32Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) total += item(i)?.length ?? 0;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const v = item(i);
    if (v) {
      bytes.set(v, at);
      at += v.length;
    }
    ends[i] = at;
  }
  return { bytes, ends };
}

/** What a result task's answer moves back to the main thread. */
export function resultsTransferables(r: ResultsOfTask): ArrayBuffer[] {
  return [r.bytes.buffer, r.ends.buffer, r.kinds.buffer, r.ops.buffer, r.chargeable.buffer] as ArrayBuffer[];
}

/** What a task's sender moves to the thread. */
function taskTransferables(t: ResultsTask): ArrayBuffer[] {
  return [t.values.buffer, t.ends.buffer, t.absent.buffer] as ArrayBuffer[];
}

/** Per record of a slice, what the engine threads made of it. */
export interface SliceResults {
  kinds: Uint8Array;
  /** The element's op (undefined: undecodable). */
  ops: Array<Op | undefined>;
  chargeable: boolean[];
  /** The encoded result value, when encoded in the thread. */
  values: Array<Buffer | undefined>;
  /** The outcome of a valid record kept for the main thread. */
  kept: Array<Outcome | undefined>;
  undecodable: Map<number, { code: string; reason: string }>;
  /** The element's own correlation id (the header's, when there is one, wins). */
  correlationIds: Map<number, string>;
}

/** One input message's value, as the slice holds it. */
export interface RawValue {
  value: Buffer | null;
}

/** The values of records[from, to) back to back, in buffers of their own (to be moved). */
function packValues(records: readonly RawValue[], from: number, to: number): Pick<ResultsTask, 'values' | 'ends' | 'absent'> {
  const n = to - from;
  const absent = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (records[from + i]!.value === null) absent[i] = 1;
  const { bytes, ends } = backToBack(n, (i) => records[from + i]!.value);
  return { values: bytes, ends, absent };
}

/** Runs `records` on the pool's threads (split as the pool splits a validated batch): decoded, validated, run and encoded there. */
export async function runResults(
  pool: EnginePool, records: readonly RawValue[], o: Omit<RecordRules, 'codec'> & { codec: ValueCodec },
): Promise<SliceResults> {
  const n = records.length;
  const out: SliceResults = {
    kinds: new Uint8Array(n), ops: new Array(n), chargeable: new Array<boolean>(n).fill(false), values: new Array(n), kept: new Array(n),
    undecodable: new Map(), correlationIds: new Map(),
  };
  const collect = (from: number, r: ResultsOfTask): void => {
    const bytes = Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
    out.kinds.set(r.kinds, from);
    for (let i = 0; i < r.ends.length; i++) {
      const at = from + i;
      if (r.kinds[i] !== RECORD.undecodable) out.ops[at] = OPS[r.ops[i]!];
      out.chargeable[at] = r.chargeable[i] === 1;
      const start = i === 0 ? 0 : r.ends[i - 1]!;
      if (r.ends[i]! > start) out.values[at] = bytes.subarray(start, r.ends[i]!);
    }
    for (const [i, k] of r.kept) out.kept[from + i] = k;
    for (const [i, code, reason] of r.undecodable) out.undecodable.set(from + i, { code, reason });
    for (const [i, id] of r.correlationIds) out.correlationIds.set(from + i, id);
  };
  const codec: CodecSpec = { schemasDir: o.codec.schemas.dir, registryIds: o.codec.registryIds };
  await Promise.all(splitRanges(n, pool.threads).map(async ([from, to]) => {
    const task: ResultsTask = { ...o, kind: KAFKA_RESULTS, codec, ...packValues(records, from, to) };
    collect(from, await pool.run<ResultsOfTask>(task, taskTransferables(task)));
  }));
  return out;
}
