/**
 * The two operations over HTTP, without HTTP: a parsed form body in, a status and a rendered body
 * out. The path every entrance shares:
 *   credentials (401/412) → billing.authenticate (401/403) → validate (412/428)
 *   → billing.reserve (402) → pool → billing.settle (ledger) → render.
 * Anything unexpected is thrown; the server turns it into a 500 without a body, after the
 * reservation has been released.
 */
import { ERRORS, errorBody, ServiceError, type ErrorBody } from '../../contract/errors.ts';
import { MAX_BATCH_ELEMENTS, type Op } from '../../contract/params.ts';
import { isPlainObject, validateCredentials, validateElement, type Validated } from '../../contract/validate.ts';
import type { Billing, Charge, Reservation } from '../../billing/billing.ts';
import { newRequestId } from '../../billing/request-id.ts';
import type { Outcome } from '../../engine/process.ts';
import type { FormFields } from './form-body.ts';
import { orderedRecord, renderBatch, renderErrorBody, renderRecord, type Extras, type Format, type Rendered } from './render.ts';

/** What runs the engine: the EnginePool (src/pool/engine-pool.ts) or anything shaped like it. */
export interface ElementRunner {
  readonly threads?: number;
  runElements(op: Op, elements: unknown[]): Promise<Outcome[]>;
}

export interface ApiDeps {
  billing: Billing;
  runner: ElementRunner;
}

export interface Answer extends Rendered {
  status: number;
  /** For metrics: records processed and charged. */
  records: number;
  charged: number;
}

const CREDENTIAL_KEYS = new Set(['license', 'guid']);
const OPTION_KEYS = ['requestproof', 'returnavailablecredits', 'responseformat'] as const;

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

function extrasFor(opts: { requestproof: boolean; returnavailablecredits: boolean }, requestid: string, credits: number): Extras {
  const e: Extras = {};
  if (opts.requestproof) e.requestid = requestid;
  if (opts.returnavailablecredits) e.availablecredits = String(credits);
  return e;
}

/** Splits work so that every pool thread gets a share of a large batch. */
async function runChunked(runner: ElementRunner, op: Op, elements: unknown[]): Promise<Outcome[]> {
  const threads = Math.max(1, runner.threads ?? 1);
  if (elements.length < 64 || threads === 1) return runner.runElements(op, elements);
  const size = Math.ceil(elements.length / threads);
  const parts: Promise<Outcome[]>[] = [];
  for (let i = 0; i < elements.length; i += size) parts.push(runner.runElements(op, elements.slice(i, i + size)));
  return (await Promise.all(parts)).flat();
}

async function execute<T>(deps: ApiDeps, reservation: Reservation, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    await deps.billing.release(reservation).catch(() => {});
    throw err;
  }
}

export async function handleApi(deps: ApiDeps, op: Op, body: FormFields): Promise<Answer> {
  const topFormat = requestedFormat(body) ?? 'json';
  try {
    const cred = validateCredentials(body as Record<string, unknown>);
    if (!cred.ok) return fail(topFormat, cred.error);
    const account = await deps.billing.authenticate(cred.credentials, op);
    if (body.batch !== undefined) return await handleBatch(deps, op, body, account.id, topFormat);
    return await handleSingle(deps, op, body, account.id, topFormat);
  } catch (err) {
    if (err instanceof ServiceError) return fail(topFormat, err.toBody());
    throw err;
  }
}

async function handleSingle(deps: ApiDeps, op: Op, body: FormFields, accountId: string, topFormat: Format): Promise<Answer> {
  const element = withoutCredentials(body);
  const v = validateElement(op, element);
  if (!v.ok) return fail(topFormat, v.error);
  const format: Format = v.options.responseformat ?? 'json';
  const reservation = await deps.billing.reserve(accountId, op, 1);
  const requestid = newRequestId();
  const [outcome] = await execute(deps, reservation, () => deps.runner.runElements(op, [element]));
  if (!outcome) {
    await deps.billing.release(reservation);
    throw new Error('engine returned no outcome');
  }
  if (!outcome.ok) {
    await deps.billing.release(reservation);
    // An engine defect is the spec's 500, which has no body: let the server answer it.
    if (outcome.error.errorcode === ERRORS.INTERNAL.status) throw new Error(outcome.error.errormessage);
    return fail(format, outcome.error);
  }
  const charges: Charge[] = outcome.chargeable ? [{ id: `${requestid}/0`, requestid }] : [];
  const settled = await deps.billing.settle(reservation, charges);
  const record = orderedRecord(op, outcome.record, extrasFor(outcome.options, requestid, settled.credits));
  return { status: 200, ...renderRecord(format, record), records: 1, charged: charges.length };
}

async function handleBatch(deps: ApiDeps, op: Op, body: FormFields, accountId: string, topFormat: Format): Promise<Answer> {
  // Top-level options (requestproof, returnavailablecredits, responseformat) are validated like an
  // element's and act as defaults for every element. `search` has no mandatory parameter, so this
  // checks exactly the options.
  const top: Record<string, unknown> = {};
  for (const k of OPTION_KEYS) if (body[k] !== undefined) top[k] = body[k];
  const topV = validateElement('search', top);
  if (!topV.ok) return fail(topFormat, topV.error);

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

  const validated: Validated[] = elements.map((e) => validateElement(op, e));
  const runIdx: number[] = [];
  for (let i = 0; i < validated.length; i++) if (validated[i]!.ok) runIdx.push(i);

  const reservation = await deps.billing.reserve(accountId, op, runIdx.length);
  const requestid = newRequestId();
  const outcomes = runIdx.length === 0
    ? []
    : await execute(deps, reservation, () => runChunked(deps.runner, op, runIdx.map((i) => elements[i])));
  if (outcomes.length !== runIdx.length) {
    await deps.billing.release(reservation);
    throw new Error(`engine returned ${outcomes.length} outcomes for ${runIdx.length} elements`);
  }
  const charges: Charge[] = [];
  const slotOutcome = new Array<Outcome | undefined>(elements.length);
  for (let j = 0; j < runIdx.length; j++) {
    const i = runIdx[j]!;
    const o = outcomes[j]!;
    slotOutcome[i] = o;
    if (o.ok && o.chargeable) charges.push({ id: `${requestid}/${i}`, requestid });
  }
  const settled = await deps.billing.settle(reservation, charges);

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
      const el = elements[i]!;
      const opts = {
        requestproof: el.requestproof !== undefined ? o.options.requestproof : topV.options.requestproof,
        returnavailablecredits: el.returnavailablecredits !== undefined ? o.options.returnavailablecredits : topV.options.returnavailablecredits,
      };
      items[i] = orderedRecord(op, o.record, extrasFor(opts, requestid, settled.credits));
    }
  }
  return { status: 200, ...renderBatch(format, items), records: runIdx.length, charged: charges.length };
}
