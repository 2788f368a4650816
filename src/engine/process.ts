/**
 * The engine's one entry: a raw request element in, an outcome out. Pure: validation (from the
 * contract) and the operation's engine, nothing else. Every entrance calls this through the pool.
 */
import type { ErrorBody } from '../contract/errors.ts';
import { EXPLAIN_KEY } from '../contract/explain.ts';
import type { Op } from '../contract/params.ts';
import type { LinesRecord, SearchRecord } from '../contract/records.ts';
import { isChargeableLinesStatus } from '../contract/records.ts';
import type { ElementOptions, LinesRequest, SearchRequest } from '../contract/requests.ts';
import { validateElement, type ElementDefaults, type ValidElement } from '../contract/validate.ts';
import { formatRecipientBlock } from './lines/index.ts';
import { lookup, lookupExplained } from './lookup/index.ts';
import type { AddressIndex } from './index/index.ts';

export interface EngineContext {
  /** The address index, required for `search`. */
  index?: AddressIndex;
}

export type RecordByOp = { search: SearchRecord; lines: LinesRecord };

export interface Processed<O extends Op = Op> {
  ok: true;
  record: RecordByOp[O];
  /** Whether this record is charged (spec README item 6). */
  chargeable: boolean;
  options: ElementOptions;
}

export interface Rejected {
  ok: false;
  error: ErrorBody;
}

export type Outcome<O extends Op = Op> = Processed<O> | Rejected;

/**
 * `defaults` fill what an element leaves out (`prefer_country`: the job's `--prefer-country`);
 * `explain` (file jobs: the job's `--explain`) decides the explanation for every element,
 * whatever an element's own `explain` key says; without it, the element's option decides.
 */
export function processElement<O extends Op>(op: O, raw: unknown, ctx: EngineContext, defaults?: ElementDefaults, explain?: boolean): Outcome<O> {
  const v = validateElement(op, raw, defaults);
  if (!v.ok) return v;
  if (explain !== undefined) setExplain(v.options, explain);
  return processValidated(op, v, ctx);
}

/** Sets or clears an element's `explain` option (the option is absent unless asked for). */
export function setExplain(options: ElementOptions, explain: boolean): void {
  if (explain) options.explain = true;
  else delete options.explain;
}

/** An element the entrance has already validated (HTTP, Kafka: validated once, before credits are held). */
export function processValidated<O extends Op>(op: O, v: ValidElement<O>, ctx: EngineContext): Processed<O> {
  if (op === 'lines') {
    const record = formatRecipientBlock(v.request as LinesRequest);
    return {
      ok: true,
      record: record as RecordByOp[O],
      chargeable: isChargeableLinesStatus(record.addresslinestatuscode),
      options: v.options,
    };
  }
  if (!ctx.index) throw new Error('search needs an address index in the engine context');
  if (v.options.explain) {
    // the explanation rides on the record under its own key (contract/explain.ts), after the spec's keys
    const r = lookupExplained(ctx.index, v.request as SearchRequest);
    const record = Object.assign(r.record, { [EXPLAIN_KEY]: r.explain });
    return { ok: true, record: record as unknown as RecordByOp[O], chargeable: true, options: v.options };
  }
  const record = lookup(ctx.index, v.request as SearchRequest);
  return { ok: true, record: record as RecordByOp[O], chargeable: true, options: v.options };
}
