/**
 * Markdown tables of the people sets: per half, per pattern and per country, with the targets.
 */
import type { SetReport, Tally } from './score.ts';

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '–');

export const TARGETS: Readonly<Record<string, { right: number; label: string }>> = {
  places: { right: 0.995, label: 'right ≥ 99.5 %' },
  addresses: { right: 0.95, label: 'city or postcode right ≥ 95 %, 0 in a ruled-out country' },
  'geocoder cases': { right: NaN, label: 'no issue target of its own (relevance ≥ 90 ⇒ right ≥ 99 %)' },
  states: { right: NaN, label: 'no issue target of its own (relevance ≥ 90 ⇒ right ≥ 99 %)' },
  'places with state': { right: NaN, label: 'no issue target of its own (relevance ≥ 90 ⇒ right ≥ 99 %)' },
  'town exonyms': { right: NaN, label: 'no issue target of its own (relevance ≥ 90 ⇒ right ≥ 99 %)' },
};

function summaryRow(label: string, t: Tally): string {
  return `| ${label} | ${t.n} | ${pct(t.right, t.n)} | ${t.rel90} | ${pct(t.rel90Right, t.rel90)} | ${pct(t.rel90Right, t.n)} | ${pct(t.empty, t.n)} | ${t.ruledOut} |`;
}

export function reportLines(rep: SetReport, opts: { countries: boolean; failures: number }): string[] {
  const L: string[] = [];
  const m = rep.byHalf.measured!, tu = rep.byHalf.tune!;
  const tgt = TARGETS[rep.set];
  L.push(`### Set: ${rep.set}`, '');
  if (tgt) {
    const okRight = Number.isFinite(tgt.right) ? (m.right / m.n >= tgt.right ? '✓' : '✗') : '';
    const ok90 = m.rel90 ? (m.rel90Right / m.rel90 >= 0.99 ? '✓' : '✗') : '';
    L.push(`Target (measured half): ${tgt.label}. Measured: right ${pct(m.right, m.n)} ${okRight}; relevance ≥ 90 ⇒ right ${pct(m.rel90Right, m.rel90)} ${ok90} (target ≥ 99 %); right with relevance ≥ 90: ${pct(m.rel90Right, m.n)} of all queries${rep.set === 'addresses' ? `; answers in a ruled-out country: ${m.ruledOut} ${m.ruledOut === 0 ? '✓' : '✗'}` : ''}.`, '');
  }
  L.push('| half | queries | right | relevance ≥ 90 | right among ≥ 90 | right with ≥ 90 (of all) | empty answer | in a ruled-out country |');
  L.push('|---|---|---|---|---|---|---|---|');
  L.push(summaryRow('tune', tu), summaryRow('measured', m), '');
  L.push('| pattern | tune: n | tune: right | measured: n | measured: right | measured: ≥ 90 | measured: right among ≥ 90 | measured: ruled-out country |');
  L.push('|---|---|---|---|---|---|---|---|');
  for (const [p, h] of [...rep.byPattern].sort(([a], [b]) => a.localeCompare(b))) {
    const a = h.tune!, b = h.measured!;
    L.push(`| ${p} | ${a.n} | ${pct(a.right, a.n)} | ${b.n} | ${pct(b.right, b.n)} | ${b.rel90} | ${pct(b.rel90Right, b.rel90)} | ${b.ruledOut} |`);
  }
  L.push('');
  if (opts.countries) {
    L.push('| country | tune: n | tune: right | measured: n | measured: right | measured: right among ≥ 90 |');
    L.push('|---|---|---|---|---|---|');
    for (const [c, h] of [...rep.byCountry].sort(([a], [b]) => a.localeCompare(b))) {
      const a = h.tune!, b = h.measured!;
      L.push(`| ${c} | ${a.n} | ${pct(a.right, a.n)} | ${b.n} | ${pct(b.right, b.n)} | ${pct(b.rel90Right, b.rel90)} |`);
    }
    L.push('');
  }
  const fails = rep.failures.filter((o) => o.c.half === 'tune').slice(0, opts.failures);
  if (fails.length) {
    L.push('Wrong answers of the tune half (first ones):', '');
    for (const o of fails) {
      const t = o.c.truth;
      const truth = t.kind === 'place' ? t.label : t.kind === 'state' ? `state ${t.codes.join(' or ') || '(none)'}` : `${t.postcode ?? ''} ${t.city} (${t.country})`.trim();
      L.push(`- \`${JSON.stringify(o.c.query)}\` (${o.c.pattern}; expects ${truth}) → ${o.r.city || '∅'} ${o.r.zip} ${o.r.state_name} ${o.r.country_iso_2 || '∅'}, ${o.r.matchlevel} ${o.r.relevance}${o.out ? ' **ruled-out country**' : ''}`);
    }
    L.push('');
  }
  return L;
}

/** The compact table recorded as a baseline: per set and half, then measured right per pattern. */
export function baselineTable(reports: SetReport[]): string[] {
  const L: string[] = [];
  L.push('| set | half | queries | right | relevance ≥ 90 | right among ≥ 90 | right with ≥ 90 (of all) | empty | ruled-out country |');
  L.push('|---|---|---|---|---|---|---|---|---|');
  for (const r of reports) for (const h of ['tune', 'measured']) {
    const t = r.byHalf[h]!;
    L.push(`| ${r.set} | ${h} | ${t.n} | ${pct(t.right, t.n)} | ${t.rel90} | ${pct(t.rel90Right, t.rel90)} | ${pct(t.rel90Right, t.n)} | ${pct(t.empty, t.n)} | ${t.ruledOut} |`);
  }
  L.push('', '| set | pattern | measured: n | measured: right | measured: right among ≥ 90 | measured: ruled-out country |', '|---|---|---|---|---|---|');
  for (const r of reports) for (const [p, h] of [...r.byPattern].sort(([a], [b]) => a.localeCompare(b))) {
    const t = h.measured!;
    L.push(`| ${r.set} | ${p} | ${t.n} | ${pct(t.right, t.n)} | ${pct(t.rel90Right, t.rel90)} | ${t.ruledOut} |`);
  }
  L.push('');
  return L;
}

/** The issue 18 rows of the Targets section (measured halves). */
export function peopleTargetLines(reports: SetReport[]): string[] {
  const ok = (v: number, goal: number) => `${pct(v, 1)} ${v >= goal ? '✓' : '✗'}`;
  const L = ['| issue 18 target (measured halves) | goal | measured |', '|---|---|---|'];
  const get = (set: string) => reports.find((r) => r.set === set)?.byHalf.measured;
  const pl = get('places'), ad = get('addresses');
  if (pl) L.push(`| places by name: right | ≥ 99.5 % | ${ok(pl.right / pl.n, 0.995)} |`);
  if (ad) {
    L.push(`| addresses with omission patterns: city or postcode right | ≥ 95 % | ${ok(ad.right / ad.n, 0.95)} |`);
    L.push(`| addresses: answers in a country the postcode shape and street word rule out | 0 | ${ad.ruledOut} ${ad.ruledOut === 0 ? '✓' : '✗'} |`);
  }
  for (const r of reports) {
    const m = r.byHalf.measured!;
    L.push(`| ${r.set}: relevance ≥ 90 ⇒ right | ≥ 99 % | ${m.rel90 ? ok(m.rel90Right / m.rel90, 0.99) : '–'} (${m.rel90} answers) |`);
    L.push(`| ${r.set}: right with relevance ≥ 90, share of all queries | not below the baseline | ${pct(m.rel90Right, m.n)} |`);
  }
  L.push('');
  return L;
}
