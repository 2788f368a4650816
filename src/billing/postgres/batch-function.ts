/**
 * Group commit on PostgreSQL in ONE round trip: a batch of money steps is sent as one JSON
 * argument to a PL/pgSQL function (created by `init`), which runs each step with the same SQL as
 * the store's own statements, in order, and answers every step's result. One statement is one
 * transaction: one commit (one WAL flush) and one round trip for the whole batch, instead of
 * BEGIN, a statement per step and COMMIT. Any step that raises rolls the batch back, and the caller
 * (group-commit.ts) runs the steps one by one, as for every store. A step alone (`reserve`,
 * `settle`, `release`) is a batch of one: the steps' SQL lives here only. A `charge` decides as the
 * reserve does, on the locked account row, and writes as the settle does, without the reservation
 * row that would live only between them. A settle or a charge that stores an
 * Idempotency-Key answer fills the answer's template with the balance after its debit in the same
 * statement (as `fillAnswer` does: the parts joined by the balance's decimal text).
 *
 * Two functions. `addrflow_money_batch` runs the steps one by one: every kind, every case (the
 * function older servers call too). `addrflow_money_charges` answers the common batch of a busy
 * server, single records' `charge` steps, with a fixed number of set-based statements whatever the
 * batch's size, where the loop runs two statements per step; the store sends it a batch of three
 * or more charges whose ledger ids are all distinct (`batchFunction`), and it hands the batch to the
 * loop when some account's balance does not cover all of its charges. Its answers and writes are
 * the loop's (test/billing/postgres-batch-function.test.ts compares them on random batches): when
 * each account's balance, net of its reservations, covers the sum of its charges' amounts, every
 * charge in order is covered too (a charge debits at most its amount), so no 402 decision depends
 * on the order, and the balance after each charge is the balance before the batch less the credits
 * written by that account's charges up to it.
 */
import type { LedgerEntry, MoneyStep, MoneyStepResult, SettleOptions } from '../store.ts';

/** The steps one by one, in order: every kind of step, every case. */
const STEPS_FUNCTION_SQL = `
CREATE OR REPLACE FUNCTION addrflow_money_batch(steps jsonb) RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  s jsonb;
  out jsonb := '[]'::jsonb;
  n bigint;
  v_credits bigint; v_reserved bigint; v_charged bigint; v_written bigint; v_ids text[]; v_amount bigint;
BEGIN
  FOR s IN SELECT value FROM jsonb_array_elements(steps) LOOP
    IF s->>'k' = 'reserve' THEN
      WITH held AS (
        UPDATE accounts SET reserved = reserved + (s->>'amount')::bigint
        WHERE id = s->>'account' AND (credits = -1 OR credits - reserved >= (s->>'amount')::bigint)
        RETURNING id)
      INSERT INTO reservations (id, account_id, amount, created_at, expires_at)
      SELECT s->>'id', held.id, (s->>'amount')::bigint, (s->>'created')::timestamptz, (s->>'expires')::timestamptz FROM held;
      GET DIAGNOSTICS n = ROW_COUNT;
      out := out || jsonb_build_array(n = 1);
      CONTINUE;
    ELSIF s->>'k' = 'release' THEN
      WITH gone AS (DELETE FROM reservations WHERE id = s->>'id' RETURNING account_id, amount)
      UPDATE accounts a SET reserved = a.reserved - gone.amount FROM gone WHERE a.id = gone.account_id;
      out := out || jsonb_build_array(NULL::jsonb);
      CONTINUE;
    ELSIF s->>'k' = 'charge' THEN
      -- a reserve and its settle without the reservation row between them: the reserve's 402
      -- decision on the locked account row, then the settle's ledger rows and debit
      SELECT credits, reserved INTO v_credits, v_reserved FROM accounts WHERE id = s->>'account' FOR UPDATE;
      IF NOT FOUND OR (v_credits <> -1 AND v_credits - v_reserved < (s->>'amount')::bigint) THEN
        out := out || jsonb_build_array(false);
        CONTINUE;
      END IF;
      WITH ins AS (
        INSERT INTO ledger (id, account_id, function, credits, request_id, created_at, exported)
        SELECT t.id, s->>'account', t.fn, t.cr, t.rq, t.tm, (s->>'exported')::boolean
        FROM jsonb_to_recordset(s->'entries') AS t(id text, fn text, cr bigint, rq text, tm timestamptz)
        ON CONFLICT (id) DO NOTHING
        RETURNING id, credits
      ), tot AS (
        SELECT count(*) AS written, coalesce(sum(credits), 0) AS total, array_agg(id) AS ids FROM ins
      ), upd AS (
        UPDATE accounts a SET credits = CASE WHEN a.credits = -1 THEN -1 ELSE a.credits - tot.total END
        FROM tot WHERE a.id = s->>'account'
        RETURNING a.credits, CASE WHEN a.credits = -1 THEN 0 ELSE tot.total END AS charged
      )
      SELECT (SELECT credits FROM upd), (SELECT charged FROM upd), (SELECT written FROM tot), (SELECT ids FROM tot)
        INTO v_credits, v_charged, v_written, v_ids;
      IF v_charged > (s->>'amount')::bigint THEN
        RAISE EXCEPTION 'settle: % credits exceed the reservation of %', v_charged, s->>'amount';
      END IF;
    ELSIF s->>'k' = 'settle' THEN
      WITH res AS (
        DELETE FROM reservations WHERE id = s->>'id' AND account_id = s->>'account' RETURNING amount
      ), ins AS (
        INSERT INTO ledger (id, account_id, function, credits, request_id, created_at, exported)
        SELECT t.id, s->>'account', t.fn, t.cr, t.rq, t.tm, (s->>'exported')::boolean
        FROM jsonb_to_recordset(s->'entries') AS t(id text, fn text, cr bigint, rq text, tm timestamptz)
        WHERE EXISTS (SELECT 1 FROM res)
        ON CONFLICT (id) DO NOTHING
        RETURNING id, credits
      ), tot AS (
        SELECT count(*) AS written, coalesce(sum(credits), 0) AS total, array_agg(id) AS ids FROM ins
      ), upd AS (
        UPDATE accounts a SET
          credits = CASE WHEN a.credits = -1 THEN -1 ELSE a.credits - tot.total END,
          reserved = a.reserved - coalesce((SELECT amount FROM res), 0)
        FROM tot WHERE a.id = s->>'account'
        RETURNING a.credits, CASE WHEN a.credits = -1 THEN 0 ELSE tot.total END AS charged
      )
      SELECT (SELECT credits FROM upd), (SELECT charged FROM upd), (SELECT written FROM tot), (SELECT ids FROM tot), (SELECT amount FROM res)
        INTO v_credits, v_charged, v_written, v_ids, v_amount;
      IF v_credits IS NULL THEN
        RAISE EXCEPTION 'settle: account % does not exist', s->>'account';
      END IF;
      IF v_amount IS NULL AND jsonb_array_length(s->'entries') > 0 THEN
        -- no reservation: fine for a replay (every id already charged), refused for a new entry
        SELECT count(*) INTO n FROM ledger
          WHERE account_id = s->>'account' AND id IN (SELECT e->>'id' FROM jsonb_array_elements(s->'entries') e);
        IF n < (SELECT count(DISTINCT e->>'id') FROM jsonb_array_elements(s->'entries') e) THEN
          RAISE EXCEPTION 'settle: reservation % is unknown or already settled', s->>'id';
        END IF;
      END IF;
    ELSE
      RAISE EXCEPTION 'addrflow_money_batch: unknown step kind %', s->>'k';
    END IF;
    -- a settle or a charge: the request's Idempotency-Key answer, its template filled with the
    -- balance after this debit, and the step's result
    IF s ? 'answer' THEN
      UPDATE idempotency_keys SET state = 'done', status = (s->'answer'->>'status')::integer, content_type = s->'answer'->>'type',
        body = (SELECT string_agg(t.part, v_credits::text ORDER BY t.i) FROM jsonb_array_elements_text(s->'answer'->'parts') WITH ORDINALITY AS t(part, i))
      WHERE account_id = s->>'account' AND key = s->'answer'->>'key';
    END IF;
    out := out || jsonb_build_array(jsonb_build_object(
      'credits', v_credits, 'charged', v_charged, 'written', v_written, 'ids', to_jsonb(coalesce(v_ids, '{}'::text[]))));
  END LOOP;
  RETURN out;
END
$fn$;
`;

/**
 * `charge` steps only, every ledger id once in the batch (the store sends no other batch here):
 * when each account's balance covers all of its charges in the batch, the accounts locked in id
 * order (as two servers' batches must lock them), every ledger row in one INSERT, each account
 * debited once, each stored answer filled with the balance after its own charge. Otherwise the
 * steps one by one.
 */
const CHARGES_FUNCTION_SQL = `
CREATE OR REPLACE FUNCTION addrflow_money_charges(steps jsonb) RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  out jsonb;
  over boolean;
BEGIN
  IF NOT (SELECT count(*) = count(a.id) AND bool_and(a.credits = -1 OR a.credits - a.reserved >= t.amount)
      FROM (SELECT e->>'account' AS id, sum((e->>'amount')::bigint) AS amount FROM jsonb_array_elements(steps) e GROUP BY 1) t
      LEFT JOIN (SELECT id, credits, reserved FROM accounts
        WHERE id IN (SELECT e->>'account' FROM jsonb_array_elements(steps) e) ORDER BY id FOR UPDATE) a USING (id))
  THEN
    RETURN addrflow_money_batch(steps);
  END IF;
  WITH st AS (
    SELECT o AS i, e AS s, e->>'account' AS account FROM jsonb_array_elements(steps) WITH ORDINALITY AS x(e, o)
  ), ent AS (
    SELECT st.i, t.j, st.account, (st.s->>'exported')::boolean AS exported, t.id, t.fn, t.cr, t.rq, t.tm
    FROM st, ROWS FROM (jsonb_to_recordset(st.s->'entries') AS (id text, fn text, cr bigint, rq text, tm timestamptz))
      WITH ORDINALITY AS t(id, fn, cr, rq, tm, j)
  ), ins AS (
    INSERT INTO ledger (id, account_id, function, credits, request_id, created_at, exported)
    SELECT id, account, fn, cr, rq, tm, exported FROM ent ORDER BY i, j
    ON CONFLICT (id) DO NOTHING
    RETURNING id, credits
  ), per AS (
    SELECT st.i, st.s, st.account, count(ins.id) AS written, coalesce(sum(ins.credits), 0) AS total,
      coalesce(array_agg(ins.id ORDER BY ent.j) FILTER (WHERE ins.id IS NOT NULL), '{}') AS ids
    FROM st LEFT JOIN ent ON ent.i = st.i LEFT JOIN ins ON ins.id = ent.id
    GROUP BY st.i, st.s, st.account
  ), res AS (
    SELECT per.*, CASE WHEN a.credits = -1 THEN 0 ELSE per.total END AS charged,
      CASE WHEN a.credits = -1 THEN -1 ELSE a.credits - sum(per.total) OVER (PARTITION BY per.account ORDER BY per.i) END AS credits
    FROM per JOIN accounts a ON a.id = per.account
  ), debit AS (
    UPDATE accounts a SET credits = a.credits - t.total
    FROM (SELECT account, sum(total) AS total FROM res GROUP BY account) t
    WHERE a.id = t.account AND a.credits <> -1 AND t.total <> 0
  ), answered AS (
    UPDATE idempotency_keys k SET state = 'done', status = (res.s->'answer'->>'status')::integer, content_type = res.s->'answer'->>'type',
      body = (SELECT string_agg(p.part, res.credits::text ORDER BY p.o) FROM jsonb_array_elements_text(res.s->'answer'->'parts') WITH ORDINALITY AS p(part, o))
    FROM res WHERE res.s ? 'answer' AND k.account_id = res.account AND k.key = res.s->'answer'->>'key'
  )
  SELECT jsonb_agg(jsonb_build_object('credits', credits, 'charged', charged, 'written', written, 'ids', to_jsonb(ids)) ORDER BY i),
    bool_or(charged > (s->>'amount')::bigint)
  INTO out, over FROM res;
  IF over THEN
    RAISE EXCEPTION 'settle: the credits written exceed a charge''s reservation';
  END IF;
  RETURN out;
END
$fn$;
`;

/** Both functions (`init` creates them; CREATE OR REPLACE, so a newer server replaces an older one's). */
export const BATCH_FUNCTION_SQL = STEPS_FUNCTION_SQL + CHARGES_FUNCTION_SQL;

/**
 * The smallest batch of charges sent to the set-based function: its fixed statements cost more
 * than the loop's two per step below three steps (`node tools/pg-money-ab.ts`).
 */
const SET_BASED_FROM = 3;

/** The function that runs `steps` (see the header). */
export function batchFunction(steps: readonly MoneyStep[]): 'addrflow_money_batch' | 'addrflow_money_charges' {
  if (steps.length < SET_BASED_FROM) return 'addrflow_money_batch';
  const ids = new Set<string>();
  let entries = 0;
  for (const s of steps) {
    if (s.kind !== 'charge') return 'addrflow_money_batch';
    for (const e of s.entries) ids.add(e.id);
    entries += s.entries.length;
  }
  return ids.size === entries ? 'addrflow_money_charges' : 'addrflow_money_batch';
}

/** The functions' argument. */
export function batchArgument(steps: readonly MoneyStep[]): string {
  return JSON.stringify(steps.map((s) => {
    switch (s.kind) {
      case 'reserve': {
        const r = s.reservation;
        return { k: 'reserve', id: r.id, account: r.accountId, amount: r.amount, created: r.createdAt, expires: r.expiresAt };
      }
      case 'settle':
        return { k: 'settle', id: s.reservationId, account: s.accountId, ...settleFields(s.entries, s.opts) };
      case 'charge': {
        const r = s.reservation;
        return { k: 'charge', id: r.id, account: r.accountId, amount: r.amount, created: r.createdAt, expires: r.expiresAt, ...settleFields(s.entries, s.opts) };
      }
      default:
        return { k: 'release', id: s.reservationId };
    }
  }));
}

/** A settle's fields of the argument (of a `settle` step and of a `charge` step). */
function settleFields(entries: readonly LedgerEntry[], opts: SettleOptions | undefined): object {
  const a = opts?.answer;
  return {
    exported: !opts?.exportLater,
    entries: entries.map((e) => ({ id: e.id, fn: e.function, cr: e.credits, rq: e.requestid, tm: e.time })),
    ...(a ? { answer: { key: a.key, status: a.template.status, type: a.template.contentType, parts: a.template.parts } } : {}),
  };
}

interface SettleJson { credits: number; charged: number; written: number; ids: string[] }

/** Each step's result from the function's answer, as the store's own methods answer them. */
export function batchResults(steps: readonly MoneyStep[], out: ReadonlyArray<boolean | SettleJson | null>): MoneyStepResult[] {
  return steps.map((s, i) => {
    const r = out[i];
    if (s.kind === 'reserve') return r === true;
    if (s.kind === 'release') return undefined;
    if (s.kind === 'charge' && r === false) return false; // its reserve failed: nothing written
    const v = r as SettleJson;
    return { written: Number(v.written), writtenIds: v.ids, charged: Number(v.charged), credits: Number(v.credits) };
  });
}
