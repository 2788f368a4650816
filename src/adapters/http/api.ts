/**
 * The two operations over HTTP, without HTTP: a parsed form body in, a status and a rendered body
 * out. The path every entrance shares:
 *   credentials (401/412) → Meter.open (401/403) → [Idempotency-Key] → validate (412/428)
 *   → meter.hold (402) → pool → meter.settle (ledger) → render.
 * A single record runs the engine before the money, which is then one step (`meter.charge`: the
 * 402 check, the ledger row and the debit in one transaction: one commit per request); on a store
 * whose thread runs the engine, both are one message (`meter.chargeAfterWork`, single-work.ts).
 * Money goes through the one metering wiring (src/billing/meter.ts): one meter per request, whose
 * job is the request (ledger ids `<account>/<op>/http:<requestid>/<index>`).
 * An engine failure is an error result, never charged: a 500 without body in single mode (the
 * server logs it with the request id), an error element in a batch (logged here).
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS, errorBody, ServiceError, type ErrorBody } from '../../contract/errors.ts';
import { MAX_BATCH_ELEMENTS, type Op } from '../../contract/params.ts';
import {
  PREFER_COUNTRY, checkPreferCountry, isPlainObject, validateCredentials, validateElement, type Validated, type ValidElement,
} from '../../contract/validate.ts';
import type { Billing } from '../../billing/billing.ts';
import { answerTemplate, fillAnswer, Meter, type AnswerTemplate, type Hold, type Settled } from '../../billing/meter.ts';
import { newRequestId } from '../../billing/request-id.ts';
import type { Outcome } from '../../engine/process.ts';
import type { Logger } from '../../log.ts';
import type { FormFields } from './form-body.ts';
import { onStoreThread, type SingleThread } from './single-route.ts';
import type { SingleTask } from './single-work.ts';
import { orderedRecord, renderBatch, renderErrorBody, renderRecord, type Extras, type Format, type Rendered } from './render.ts';

/**
 * What runs the engine: the EnginePool (src/pool/engine-pool.ts) or anything shaped like it. It
 * takes elements this adapter already validated (no second validation) and splits a large batch
 * across its threads itself.
 */
export interface ElementRunner {
  runValidated(op: Op, elements: ValidElement[]): Promise<Outcome[]>;
  /** Where a runner that groups single records reports each group's size (`/metrics`). */
  onSinglesTask?: (records: number) => void;
  /** True when it runs these elements on the calling thread (a recipient block: cheaper than any hop). */
  runsHere?(op: Op, elements: readonly ValidElement[]): boolean;
}

export interface ApiDeps {
  billing: Billing;
  runner: ElementRunner;
  /** Where engine failures of batch elements are logged (with the request id). */
  log?: Logger;
  /** How long a duplicate waits for the first request of its Idempotency-Key (default 30 s). */
  idempotencyWaitMs?: number;
}

export interface ApiOptions {
  /** The `Idempotency-Key` header, if given. */
  idempotencyKey?: string | undefined;
}

export interface Answer extends Rendered {
  status: number;
  /** For metrics: records processed and charged. */
  records: number;
  charged: number;
  /** The answer is a stored one, repeated for its Idempotency-Key (nothing ran). */
  replayed?: boolean;
  /** A single record's engine ran on this thread (`/metrics`; single-route.ts). */
  ranOn?: SingleThread;
}

/** An engine failure in single mode: the server answers 500 (no body) and logs it with the request id. */
export class EngineFailure extends Error {
  readonly requestid: string;
  constructor(requestid: string, message: string) {
    super(message);
    this.name = 'EngineFailure';
    this.requestid = requestid;
  }
}

/** An Idempotency-Key: 1 to 255 visible ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

const CREDENTIAL_KEYS = new Set(['license', 'guid']);
const OPTION_KEYS = ['requestproof', 'returnavailablecredits', 'responseformat', 'explain'] as const;

function fail(format: Format, error: ErrorBody): Answer {
  return { status: error.errorcode, ...renderErrorBody(format, error), records: 0, charged: 0 };
}

/** The top-level `responseformat` when it is a valid value, for rendering errors. */
function requestedFormat(body: FormFields): Format | undefined {
  const f = body.responseformat;
  if (typeof f !== 'string') return undefined;
  const l = f.toLowerCase();
  return l === 'xml' || l === 'json' ? l : undefined;
}

/** A copy of the form without the credentials (they never travel to the worker threads). */
function withoutCredentials(body: FormFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(body)) if (!CREDENTIAL_KEYS.has(k)) out[k] = body[k];
  return out;
}

function extrasFor(opts: { requestproof: boolean; returnavailablecredits: boolean }, requestid: string, credits: number | string): Extras {
  const e: Extras = {};
  if (opts.requestproof) e.requestid = requestid;
  if (opts.returnavailablecredits) e.availablecredits = String(credits);
  return e;
}

/** Runs `fn` under `hold`; a failure gives the hold back before it propagates. */
async function execute<T>(meter: Meter, hold: Hold, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    await meter.release(hold).catch(() => {});
    throw err;
  }
}

export async function handleApi(deps: ApiDeps, op: Op, body: FormFields, opts: ApiOptions = {}): Promise<Answer> {
  const topFormat = requestedFormat(body) ?? 'json';
  try {
    const cred = validateCredentials(body as Record<string, unknown>);
    if (!cred.ok) return fail(topFormat, cred.error);
    const meter = await Meter.open(deps.billing, cred.credentials, [op], { job: { kind: 'http', requestid: newRequestId() } });
    const run = (key?: KeyAnswer): Promise<Answer> => body.batch !== undefined
      ? handleBatch(deps, op, body, meter, topFormat, key)
      : handleSingle(deps, op, body, meter, topFormat, key);
    if (opts.idempotencyKey === undefined) return await run();
    return await idempotent(deps, op, body, meter.accountId, opts.idempotencyKey, run);
  } catch (err) {
    if (err instanceof ServiceError) return fail(topFormat, err.toBody());
    throw err;
  }
}

/**
 * A claimed Idempotency-Key while its request runs: the handler stores the answer with the settle,
 * in one transaction (`stored` then says so); an answer with nothing to settle is stored after.
 */
interface KeyAnswer {
  key: string;
  stored: boolean;
}

/**
 * The settle option that stores the answer filled in from the balance after the debit (see
 * KeyAnswer), and the answer to send: the stored one when the settle stored it, else `render`'s.
 */
function storedWith(key: KeyAnswer | undefined, render: (balance: number | string) => Rendered): {
  opts: { answer?: { key: string; template: AnswerTemplate } };
  /** The answer for the balance after the settle (`settled`, undefined when nothing was settled) or else `balance`. */
  answer: (settled: number | undefined, balance: number) => Rendered;
} {
  if (!key) return { opts: {}, answer: (_settled, balance) => render(balance) };
  const template = answerTemplate(200, render);
  return {
    opts: { answer: { key: key.key, template } },
    answer: (settled, balance) => {
      if (settled === undefined) return render(balance); // nothing settled: `idempotent` stores it after
      key.stored = true;
      return fillAnswer(template, settled);
    },
  };
}

/** What a key is bound to: the operation and every form field but the credentials. */
function fingerprint(op: Op, body: FormFields): string {
  const h = createHash('sha256').update(op);
  for (const k of Object.keys(body).filter((k) => !CREDENTIAL_KEYS.has(k)).sort()) {
    h.update('\0').update(k).update('\0').update(JSON.stringify(body[k]));
  }
  return h.digest('hex');
}

/**
 * Safe retries (docs/http.md): the first request of a key (per account) runs; its answer, when it
 * is a 200, is kept 24 h and given again to every repeat, which runs and costs nothing. Error
 * answers are not kept (nothing was charged; a repeat is evaluated afresh, e.g. after a top-up).
 * A repeat that arrives while the first still runs waits for its answer.
 */
async function idempotent(deps: ApiDeps, op: Op, body: FormFields, accountId: string, key: string, run: (key: KeyAnswer) => Promise<Answer>): Promise<Answer> {
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new ServiceError('INVALID_PARAMETER', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.');
  }
  const fp = fingerprint(op, body);
  const deadline = Date.now() + (deps.idempotencyWaitMs ?? 30_000);
  for (let wait = 20; ; wait = Math.min(500, wait * 2)) {
    const claim = await deps.billing.claimIdempotencyKey(accountId, key, fp);
    if (claim.state === 'claimed') break;
    if (claim.fingerprint !== fp) {
      throw new ServiceError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was already used for a different request; use a new key for a new request.');
    }
    if (claim.state === 'done') return { ...claim.answer, records: 0, charged: 0, replayed: true };
    if (Date.now() >= deadline) {
      throw new ServiceError('IDEMPOTENCY_CONFLICT', 'The first request with this Idempotency-Key is still running; retry later.');
    }
    await sleep(wait);
  }
  const claimed: KeyAnswer = { key, stored: false };
  let ans: Answer;
  try {
    ans = await run(claimed);
  } catch (err) {
    await deps.billing.abandonIdempotencyKey(accountId, key).catch(() => {});
    throw err;
  }
  if (ans.status === 200) {
    if (!claimed.stored) await deps.billing.completeIdempotencyKey(accountId, key, { status: ans.status, contentType: ans.contentType, body: ans.body });
  } else {
    await deps.billing.abandonIdempotencyKey(accountId, key);
  }
  return ans;
}

async function handleSingle(deps: ApiDeps, op: Op, body: FormFields, meter: Meter, topFormat: Format, key?: KeyAnswer): Promise<Answer> {
  const element = withoutCredentials(body);
  const v = validateElement(op, element);
  if (!v.ok) return fail(topFormat, v.error);
  const format: Format = v.options.responseformat ?? 'json';
  const requestid = meter.requestid;
  // The engine first, then the money in ONE store step (the 402 check, the ledger row and the
  // debit in one transaction): the engine is pure, so running it before the 402 check shows nothing.
  // Where the store's thread runs the engine (single-work.ts), both are one message to it, unless
  // the record overflows to the pool (single-route.ts) or has an Idempotency-Key.
  let outcome: Outcome | undefined;
  let settled: Settled | undefined;
  const runsHere = deps.runner.runsHere?.(op, [v]) ?? false;
  const onStore = onStoreThread({ storeRunsWork: deps.billing.runsWork, runsHere, idempotent: key !== undefined, waiting: deps.billing.commits.waiting });
  const ranOn: SingleThread = onStore ? 'store' : runsHere ? 'event_loop' : 'pool';
  if (onStore) {
    const task: SingleTask = { op, element: v };
    const r = await meter.chargeAfterWork(op, { task });
    outcome = r.result as Outcome;
    settled = r.settled;
  } else {
    [outcome] = await deps.runner.runValidated(op, [v]);
  }
  if (!outcome || !outcome.ok) {
    if (!settled) await meter.charge(op, [false]); // a 402 comes first, as when credits were held before the engine
    if (!outcome) throw new EngineFailure(requestid, 'engine returned no outcome');
    // An engine defect is the spec's 500, which has no body: let the server answer (and log) it.
    if (outcome.error.errorcode === ERRORS.INTERNAL.status) throw new EngineFailure(requestid, outcome.error.errormessage);
    return { ...fail(format, outcome.error), ranOn };
  }
  const stored = storedWith(key, (b) => renderRecord(format, orderedRecord(op, outcome.record, extrasFor(outcome.options, requestid, b))));
  settled ??= await meter.charge(op, [outcome.chargeable], stored.opts);
  const balance = settled.balance ?? (outcome.options.returnavailablecredits ? await meter.balance() : 0);
  return { status: 200, ...stored.answer(settled.balance, balance), records: 1, charged: settled.entries.length, ranOn };
}

async function handleBatch(deps: ApiDeps, op: Op, body: FormFields, meter: Meter, topFormat: Format, key?: KeyAnswer): Promise<Answer> {
  // Top-level options (requestproof, returnavailablecredits, responseformat) are validated like an
  // element's and act as defaults for every element. `search` has no mandatory parameter, so this
  // checks exactly the options.
  const top: Record<string, unknown> = {};
  for (const k of OPTION_KEYS) if (body[k] !== undefined) top[k] = body[k];
  const topV = validateElement('search', top);
  if (!topV.ok) return fail(topFormat, topV.error);
  // extension: a top-level prefer_country is every search element's default (checked the same way)
  const topPrefer = op === 'search' ? checkPreferCountry(body[PREFER_COUNTRY]) : {};
  if ('ok' in topPrefer) return fail(topFormat, topPrefer.error);
  const defaults = topPrefer.value ? { prefer_country: topPrefer.value } : undefined;

  const raw = body.batch;
  if (Array.isArray(raw)) return fail(topFormat, errorBody('INVALID_PARAMETER', "Parameter 'batch' is given more than once."));
  if (raw === undefined || raw.trim() === '') return fail(topFormat, errorBody('MISSING_PARAMETER', "Mandatory parameter 'batch' is missing or empty."));
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    return fail(topFormat, errorBody('INVALID_PARAMETER', `Parameter 'batch' is not valid JSON: ${(err as Error).message}`));
  }
  if (!Array.isArray(parsed)) return fail(topFormat, errorBody('INVALID_PARAMETER', "Parameter 'batch' must be a JSON array of objects."));
  if (parsed.length === 0) return fail(topFormat, errorBody('MISSING_PARAMETER', "Mandatory parameter 'batch' is an empty array."));
  if (parsed.length > MAX_BATCH_ELEMENTS) {
    return fail(topFormat, errorBody('INVALID_PARAMETER', `Parameter 'batch' has ${parsed.length} elements; at most ${MAX_BATCH_ELEMENTS} are allowed.`));
  }
  const bad = parsed.findIndex((e) => !isPlainObject(e));
  if (bad >= 0) return fail(topFormat, errorBody('INVALID_PARAMETER', `Parameter 'batch' must be a JSON array of objects; element ${bad} is not an object.`));
  const elements = parsed as Record<string, unknown>[];

  // Response format (spec README item 3): top-level, else the elements that name one must agree.
  let format: Format = topV.options.responseformat ?? 'json';
  if (topV.options.responseformat === undefined) {
    const named = new Set<Format>();
    for (const e of elements) {
      const f = e.responseformat;
      if (typeof f === 'string' && (f.toLowerCase() === 'json' || f.toLowerCase() === 'xml')) named.add(f.toLowerCase() as Format);
    }
    if (named.size > 1) {
      return fail('json', errorBody('INVALID_PARAMETER', "The batch elements ask for different values of 'responseformat'; give one top-level 'responseformat' or make them agree."));
    }
    format = named.values().next().value ?? 'json';
  }

  const validated: Validated[] = elements.map((e) => validateElement(op, e, defaults));
  // a top-level explain=1 is the default of the elements that do not say
  if (topV.options.explain && op === 'search') {
    validated.forEach((v, i) => { if (v.ok && elements[i]!.explain === undefined) v.options.explain = true; });
  }
  const runIdx: number[] = [];
  for (let i = 0; i < validated.length; i++) if (validated[i]!.ok) runIdx.push(i);

  // only the elements validation accepted hold credits; each keeps its index as its record key
  const requestid = meter.requestid;
  const hold = await meter.hold(runIdx.map((i) => ({ op, record: i })), { partial: false });
  const outcomes = runIdx.length === 0
    ? []
    : await execute(meter, hold, () => deps.runner.runValidated(op, runIdx.map((i) => validated[i] as ValidElement)));
  if (outcomes.length !== runIdx.length) {
    await meter.release(hold);
    throw new EngineFailure(requestid, `engine returned ${outcomes.length} outcomes for ${runIdx.length} elements`);
  }
  const slotOutcome = new Array<Outcome | undefined>(elements.length);
  for (let j = 0; j < runIdx.length; j++) {
    const i = runIdx[j]!;
    const o = outcomes[j]!;
    slotOutcome[i] = o;
    if (!o.ok && o.error.errorcode === ERRORS.INTERNAL.status) {
      deps.log?.error({ requestid, element: i, error: o.error.errormessage }, 'engine failure: the element gets a 500 error in its slot and is not charged');
    }
  }
  // each element's options (its own, else the top-level defaults)
  const wants = (i: number) => {
    const el = elements[i]!;
    const o = slotOutcome[i]!;
    if (!o.ok) return { requestproof: false, returnavailablecredits: false };
    return {
      requestproof: el.requestproof !== undefined ? o.options.requestproof : topV.options.requestproof,
      returnavailablecredits: el.returnavailablecredits !== undefined ? o.options.returnavailablecredits : topV.options.returnavailablecredits,
    };
  };
  const itemsWith = (balance: number | string): object[] => {
    const items: object[] = new Array(elements.length);
    for (let i = 0; i < elements.length; i++) {
      const v = validated[i]!;
      const o = slotOutcome[i];
      if (!v.ok) {
        items[i] = { errorcode: v.error.errorcode, errormessage: v.error.errormessage };
      } else if (!o || !o.ok) {
        const e = o && !o.ok ? o.error : errorBody('INTERNAL');
        items[i] = { errorcode: e.errorcode, errormessage: e.errormessage };
      } else {
        items[i] = orderedRecord(op, o.record, extrasFor(wants(i), requestid, balance));
      }
    }
    return items;
  };
  const stored = storedWith(key, (b) => renderBatch(format, itemsWith(b)));
  const settled = await meter.settle(hold, outcomes.map((o) => o.ok && o.chargeable), stored.opts);
  let balance = settled.balance;
  if (balance === undefined && runIdx.some((i) => slotOutcome[i]?.ok && wants(i).returnavailablecredits)) balance = await meter.balance();
  return { status: 200, ...stored.answer(settled.balance, balance ?? 0), records: runIdx.length, charged: settled.entries.length };
}
