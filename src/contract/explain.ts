/**
 * The opt-in explanation of a lookup answer (issue 18): what became of each part of the input,
 * and each relevance deduction with its points. Asked for with `explain=1` (HTTP), `run
 * --explain` (file jobs) or `consume --explain` (Kafka); never present otherwise, so the spec's
 * keys stay byte-identical by default. Never logged (it repeats the input: personal data).
 *
 * Its forms: the JSON key `explain` (this object), the XML element `<explain>` (explainXml),
 * the CSV columns `explain_parts` and `explain_deductions` (compact strings, explainCsvCells),
 * and the Avro result schema search-result v2 (its `explain` field).
 */
import { xmlText } from './xml-text.ts';

/** matched: as typed; corrected: typo, abbreviation, diacritics; inferred: not typed, the answer supplied it; ignored: nothing explained it. */
export type ExplainStatus = 'matched' | 'corrected' | 'inferred' | 'ignored';

export interface ExplainPart {
  /** The input part as read (folded word), or '' for an inferred part. */
  input: string;
  status: ExplainStatus;
  /** The answer's key it became (`street`, `city`, `zip`, `country_iso_2` …), '' when ignored. */
  field: string;
  /** What it became in the answer ('' when ignored). */
  became: string;
  /** Why, in a few words (`typo`, `abbreviation`, `diacritics`, `from the postcode` …). */
  why: string;
}

/** One relevance deduction; the same shape as the engine's (src/engine/lookup/score/deductions.ts). */
export interface ExplainDeduction {
  code: string;
  points: number;
  why: string;
}

export interface Explanation {
  parts: ExplainPart[];
  deductions: ExplainDeduction[];
}

/** The key a record carries its explanation under (JSON key, XML element, Avro v2 field). */
export const EXPLAIN_KEY = 'explain';

/** The CSV columns of an explanation, appended after the result columns with `--explain`. */
export const EXPLAIN_CSV_KEYS = ['explain_parts', 'explain_deductions'] as const;

/**
 * The two CSV cells. Parts: `status:field:input=became` joined by `; `, with `(why)` after a
 * corrected or inferred part (`corrected:city:pariss=paris(typo)`, `inferred:country_iso_2:=FR(…)`,
 * `ignored::xyz=`). Deductions: `CODE:-points` joined by `; ` (`AMBIGUOUS_STREET:-15`).
 */
export function explainCsvCells(e: Explanation): [string, string] {
  const parts = e.parts.map((p) => `${p.status}:${p.field}:${p.input}=${p.became}${p.why && p.status !== 'matched' && p.status !== 'ignored' ? `(${p.why})` : ''}`);
  const deductions = e.deductions.map((d) => `${d.code}:-${d.points}`);
  return [parts.join('; '), deductions.join('; ')];
}

/** `<explain><part …/>…<deduction …/>…</explain>`, values as attributes. */
export function explainXml(e: Explanation): string {
  let out = '<explain>';
  for (const p of e.parts) {
    out += `<part status="${p.status}" field="${xmlText(p.field)}" input="${xmlText(p.input)}" became="${xmlText(p.became)}" why="${xmlText(p.why)}"/>`;
  }
  for (const d of e.deductions) out += `<deduction code="${xmlText(d.code)}" points="${d.points}" why="${xmlText(d.why)}"/>`;
  return out + '</explain>';
}

/** A value is an explanation (the record's `explain` key, when asked for). */
export function isExplanation(v: unknown): v is Explanation {
  return typeof v === 'object' && v !== null && Array.isArray((v as Explanation).parts) && Array.isArray((v as Explanation).deductions);
}
