/**
 * The job report as ONE self-contained HTML file: inline CSS and inline SVG (bars, histogram,
 * map), no script, no font, no image, nothing fetched (a Content-Security-Policy says so to the
 * browser as well). Every value that came from the input or the job goes through `esc`.
 */
import { ERRORS } from '../../../contract/errors.ts';
import { LINES_STATUS } from '../../../contract/records.ts';
import { RELEVANCE_BINS, type ReportRow, type ReportState } from './aggregate.ts';
import { esc, fmt } from './html.ts';
import { renderMap } from './map.ts';

export interface ReportMeta {
  /** The job's identity (the input's identity or --job-id). */
  jobId: string;
  input: string;
  output: string;
  /** How the run ended: 'done', or why it stopped. */
  end: string;
  finishedAt: Date;
  /** Processing time over all runs of the job (resumes included). */
  elapsedMs: number;
  /** Credits charged, or undefined for an unmetered run. */
  credits: number | undefined;
  /** What a position counts: line, element or row. */
  unit: string;
  /**
   * Rows the reader or the format could not read (a part of the rejected ones), over the whole
   * job, the first with their reason; `limit` is --max-rejected (undefined: none given).
   */
  unreadable?: { count: number; rows: ReadonlyArray<{ position: number; reason: string }>; limit: number | undefined };
}

const ERROR_BY_STATUS = new Map<number, string>(Object.values(ERRORS).map((d) => [d.status, d.code.replace('ADDR_ERR_', '').replaceAll('_', ' ').toLowerCase()]));

function codeLabel(op: string, code: number): string {
  if (code >= 400) return `${code} ${ERROR_BY_STATUS.get(code) ?? 'error'}`;
  if (op === 'search') return `${code} processed`;
  return `${code} ${(LINES_STATUS as Record<number, string>)[code] ?? 'status'}`;
}

interface Bar {
  key: string;
  label: string;
  count: number;
  colour: string;
}

const BAR_ROW = 24;

/** Horizontal bars with their counts drawn beside them. */
function bars(chart: string, title: string, items: Bar[]): string {
  if (items.length === 0) return '';
  const max = Math.max(1, ...items.map((b) => b.count));
  const labelW = 215, barW = 190, width = labelW + barW + 75;
  const height = items.length * BAR_ROW + 4;
  const rows = items.map((b, i) => {
    const y = i * BAR_ROW + 2;
    const w = Math.max(b.count > 0 ? 1.5 : 0, Math.round((b.count / max) * barW * 10) / 10);
    const label = b.label.length > 30 ? b.label.slice(0, 29) + '…' : b.label;
    return `<g><title>${esc(b.label)}: ${fmt(b.count)}</title>`
      + `<text class="label" x="${labelW - 8}" y="${y + 16}" text-anchor="end">${esc(label)}</text>`
      + `<rect x="${labelW}" y="${y + 3}" width="${w}" height="${BAR_ROW - 7}" rx="2" fill="${b.colour}"/>`
      + `<text class="count" data-chart="${esc(chart)}" data-key="${esc(b.key)}" x="${labelW + w + 6}" y="${y + 16}">${fmt(b.count)}</text></g>`;
  });
  return `<section class="card"><h2>${esc(title)}</h2><svg class="bars" id="chart-${esc(chart)}" viewBox="0 0 ${width} ${height}" style="max-width:${width}px" role="img" aria-label="${esc(title)}">${rows.join('')}</svg></section>`;
}

/** The relevance histogram: vertical bars, bins of ten points. */
function histogram(counts: number[]): string {
  const max = Math.max(1, ...counts);
  const bw = 38, gap = 8, h = 170, top = 22, width = counts.length * (bw + gap) + gap;
  const cols = counts.map((c, i) => {
    const x = gap + i * (bw + gap);
    const bh = c > 0 ? Math.max(1.5, Math.round((c / max) * h * 10) / 10) : 0;
    const lo = i * 10, hi = i === RELEVANCE_BINS - 1 ? 100 : lo + 9;
    const colour = i < 5 ? '#dc2626' : i < 8 ? '#f59e0b' : '#16a34a';
    return `<g><title>relevance ${lo}–${hi}: ${fmt(c)}</title>`
      + `<rect x="${x}" y="${top + h - bh}" width="${bw}" height="${bh}" rx="2" fill="${colour}"/>`
      + `<text class="count" data-chart="relevance" data-key="${lo}" x="${x + bw / 2}" y="${top + h - bh - 5}" text-anchor="middle">${fmt(c)}</text>`
      + `<text class="label" x="${x + bw / 2}" y="${top + h + 16}" text-anchor="middle">${lo}–${hi}</text></g>`;
  });
  return `<svg class="histogram" id="chart-relevance" viewBox="0 0 ${width} ${top + h + 24}" style="max-width:${width}px" role="img" aria-label="relevance histogram">`
    + `<line x1="0" x2="${width}" y1="${top + h}" y2="${top + h}" class="axis"/>${cols.join('')}</svg>`;
}

function codeColour(op: string, code: number): string {
  if (code >= 400) return '#dc2626';
  if (op === 'search' || code === 0) return '#16a34a';
  if (code === 1) return '#65a30d';
  return '#f59e0b';
}

const MATCHLEVEL_COLOUR: Record<string, string> = { housenumber: '#16a34a', street: '#65a30d', general: '#f59e0b' };

function tile(key: string, label: string, value: string, hint = ''): string {
  return `<div class="tile"><div class="tile-label">${esc(label)}</div><div class="tile-value" data-tile="${esc(key)}">${esc(value)}</div>${hint ? `<div class="tile-hint">${esc(hint)}</div>` : ''}</div>`;
}

function duration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** A record's JSON as key/value pairs for a person (empty values left out), or its raw text. */
function fields(text: string, leaveOut: ReadonlySet<string> = new Set()): string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return `<code>${esc(text)}</code>`;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `<code>${esc(text)}</code>`;
  const kv = Object.entries(v as Record<string, unknown>)
    .filter(([k, x]) => x !== '' && x !== null && x !== undefined && !leaveOut.has(k))
    .map(([k, x]) => `<span class="kv"><b>${esc(k)}</b> ${esc(typeof x === 'string' ? x : JSON.stringify(x))}</span>`);
  return kv.join(' ') || '<i>empty</i>';
}

const OUTPUT_NOISE = new Set(['id', 'country_iso_3', 'navigation_latitude', 'navigation_longitude', 'state_code']);

function rankLabel(op: string, row: ReportRow): string {
  if (row.rank < 0) return '<span class="badge bad">rejected</span>';
  if (op === 'search') return `<span class="badge ${row.rank < 50 ? 'bad' : row.rank < 80 ? 'warn' : 'ok'}">relevance ${row.rank}</span>`;
  return row.rank === 0 ? '<span class="badge warn">not formatted</span>' : '<span class="badge ok">formatted</span>';
}

/** Unreadable rows: a section of their own, apart from the rows the parameter table refused. */
function unreadableSection(u: NonNullable<ReportMeta['unreadable']>, unit: string): string {
  const policy = u.limit === undefined
    ? 'Without <code>--max-rejected</code>, a job that has any ends with exit code 9 once every readable row is done.'
    : `<code>--max-rejected ${fmt(u.limit)}</code>: up to ${fmt(u.limit)} are accepted over the whole job; past that the job stops (exit code 10).`;
  if (u.count === 0) {
    return `<section class="card wide" id="unreadable"><h2>Unreadable rows</h2><p class="note">None: the reader read every row as a record. ${policy}</p></section>`;
  }
  const rows = u.rows.map((r) => `<tr><td class="pos" data-unreadable-position="${r.position}">${esc(unit)} ${fmt(r.position)}</td><td><span class="badge bad">unreadable</span></td><td>${esc(r.reason)}</td></tr>`);
  return `<section class="card wide" id="unreadable"><h2>Unreadable rows</h2>`
    + `<p class="note"><span data-unreadable-count="${u.count}">${fmt(u.count)}</span> rows could not be read as a record (bad quoting, more fields than the header, not UTF-8, not JSON or not a JSON object); they are counted among the rejected, their error is in their slot. ${policy}`
    + `${u.count > u.rows.length ? ` The first ${fmt(u.rows.length)}:` : ''}</p>`
    + `<table id="unreadable-rows"><thead><tr><th>where</th><th>why</th><th>reason</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

function rowsTable(s: ReportState, unit: string): string {
  if (s.rowsKept === 0) {
    return '<section class="card wide"><h2>Rows to look at first</h2><p class="note">Left out (<code>--report-rows 0</code>): this report holds no input data.</p></section>';
  }
  const tr = (r: ReportRow) => `<tr><td class="pos" data-position="${r.position}">${esc(unit)} ${fmt(r.position)}</td><td>${rankLabel(s.op, r)}</td>`
    + `<td class="in">${fields(r.input)}</td><td class="out">${fields(r.output, OUTPUT_NOISE)}</td></tr>`;
  const head = '<thead><tr><th>where</th><th>why</th><th>input</th><th>result</th></tr></thead>';
  const lowest = s.rows.length === 0
    ? `<p class="note">No processed row with ${s.op === 'search' ? 'a relevance below 100' : 'a block that could not be formatted'}.</p>`
    : `<p class="note">${s.op === 'search'
      ? `The ${fmt(s.rows.length)} processed rows with the lowest relevance (below 100), lowest first, then in input order`
      : `The ${fmt(s.rows.length)} processed rows whose recipient block could not be formatted, in input order`} (at most ${fmt(s.rowsKept)}; <code>--report-rows 0</code> leaves input data out).</p>`
      + `<table id="rows">${head}<tbody>${s.rows.map(tr).join('')}</tbody></table>`;
  const rejected = s.rejectedRows.length === 0 ? ''
    : `<h2 class="sub2">First rejected rows</h2><p class="note">${fmt(s.rejectedRows.length)} of ${fmt(s.rejected)} rejected rows, in input order, as examples of what was refused.</p>`
      + `<table id="rejected-rows">${head}<tbody>${s.rejectedRows.map(tr).join('')}</tbody></table>`;
  return `<section class="card wide"><h2>Rows to look at first</h2>${lowest}${rejected}</section>`;
}

const CSS = `
:root{--ink:#1f2937;--muted:#6b7280;--line:#e5e7eb;--bg:#f8fafc}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1040px;margin:0 auto;padding:28px 20px 48px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:15px;margin:0 0 12px;color:#111827}
.sub{color:var(--muted);margin:0 0 20px}
.status{display:inline-block;padding:2px 10px;border-radius:999px;font-size:12px;font-weight:600;vertical-align:middle;margin-left:8px}
.status.done{background:#dcfce7;color:#166534}.status.stopped{background:#fee2e2;color:#991b1b}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(440px,1fr));gap:16px;align-items:start}
svg.bars,svg.histogram{display:block;width:100%;height:auto}
.card{background:#fff;border:1px solid var(--line);border-radius:10px;padding:16px 18px;overflow-x:auto}
.wide{grid-column:1/-1}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin-bottom:16px}
.tile{background:#fff;border:1px solid var(--line);border-radius:10px;padding:12px 14px}
.tile-label{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.tile-value{font-size:24px;font-weight:650;margin-top:2px}.tile-hint{color:var(--muted);font-size:12px}
dl.id{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
dl.id dt{color:var(--muted)}dl.id dd{margin:0;word-break:break-all}
svg text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;fill:#374151}
svg text.count{font-weight:600;fill:#111827}
svg .axis{stroke:#9ca3af}
svg.map{width:100%;height:auto;border-radius:6px}
svg.map .sea{fill:#e0f2fe}svg.map .land path{fill:#f1f5f9;stroke:#94a3b8;stroke-width:.6}
svg.map .cells path{stroke:#7c2d12;stroke-width:.3;fill-opacity:.9}
.legend{color:var(--muted);font-size:12px;margin-top:8px}.key{margin-right:10px;white-space:nowrap}
.key i{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:4px;vertical-align:-2px}
.note{color:var(--muted);margin:0 0 10px}h2.sub2{margin-top:22px}
table{border-collapse:collapse;width:100%;font-size:13px}
th{text-align:left;color:var(--muted);font-weight:600;border-bottom:1px solid var(--line);padding:6px 8px}
td{border-bottom:1px solid var(--line);padding:6px 8px;vertical-align:top}
td.pos{white-space:nowrap;color:var(--muted)}
.kv{display:inline-block;margin:0 10px 2px 0}.kv b{color:var(--muted);font-weight:500}
.badge{display:inline-block;white-space:nowrap;padding:1px 8px;border-radius:999px;font-size:12px;font-weight:600}
.badge.bad{background:#fee2e2;color:#991b1b}.badge.warn{background:#fef3c7;color:#92400e}.badge.ok{background:#dcfce7;color:#166534}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all}
footer{color:var(--muted);font-size:12px;margin-top:24px}
`;

export function renderReport(s: ReportState, meta: ReportMeta): string {
  const done = meta.end === 'done';
  const rate = meta.elapsedMs > 0 ? Math.round((s.records + s.notCovered) / (meta.elapsedMs / 1000)) : 0;
  const codes = Object.entries(s.byCode).map(([k, c]) => [Number(k), c] as const).sort((a, b) => a[0] - b[0])
    .map(([code, count]): Bar => ({ key: String(code), label: codeLabel(s.op, code), count, colour: codeColour(s.op, code) }));
  const levels = ['housenumber', 'street', 'general'].filter((m) => s.byMatchlevel[m] !== undefined)
    .map((m): Bar => ({ key: m, label: m, count: s.byMatchlevel[m]!, colour: MATCHLEVEL_COLOUR[m]! }));
  const byCountry = Object.entries(s.byCountry).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const TOP = 20;
  const countries: Bar[] = byCountry.slice(0, TOP).map(([k, c]) => ({ key: k || 'none', label: k || 'no country', count: c, colour: '#2563eb' }));
  if (byCountry.length > TOP) {
    countries.push({ key: 'others', label: `${byCountry.length - TOP} other countries`, count: byCountry.slice(TOP).reduce((a, [, c]) => a + c, 0), colour: '#93c5fd' });
  }
  const ok = s.op === 'search' ? s.answered : (s.byCode['0'] ?? 0) + (s.byCode['1'] ?? 0);
  const identity: Array<[string, string]> = [
    ['job', meta.jobId], ['operation', s.op], ['input', meta.input], ['output', meta.output],
    ['started', s.startedAt], ['finished', meta.finishedAt.toISOString()],
    ['duration', duration(meta.elapsedMs)], ['records/s', fmt(rate)],
    ['credits charged', meta.credits === undefined ? 'unmetered run' : fmt(meta.credits)],
  ];
  const notCovered = s.notCovered > 0
    ? `<p class="note">The first ${fmt(s.notCovered)} records ran before this report was asked for (the job was resumed with --report); the counts below cover the rest.</p>` : '';
  const body = [
    `<h1>addrflow job report<span class="status ${done ? 'done' : 'stopped'}" id="status">${done ? 'finished' : `stopped: ${esc(meta.end)}`}</span></h1>`,
    `<p class="sub">${esc(s.op === 'search' ? 'Address lookup' : 'Recipient blocks')} · ${esc(meta.input)}</p>`,
    notCovered,
    '<div class="tiles">',
    tile('records', 'records', fmt(s.records)),
    tile('processed', 'processed', fmt(s.processed)),
    tile('rejected', 'rejected', fmt(s.rejected), 'invalid input, not charged'),
    meta.unreadable ? tile('unreadable', 'unreadable', fmt(meta.unreadable.count), 'of the rejected: not readable as a record') : '',
    s.op === 'search' ? tile('answered', 'answered points', fmt(ok)) : tile('formatted', 'formatted (status 0/1)', fmt(ok)),
    tile('rate', 'records/s', fmt(rate)),
    tile('credits', 'credits charged', meta.credits === undefined ? '–' : fmt(meta.credits)),
    '</div>',
    '<div class="grid">',
    `<section class="card"><h2>Job</h2><dl class="id">${identity.map(([k, v]) => `<dt>${esc(k)}</dt><dd data-id="${esc(k)}">${esc(v)}</dd>`).join('')}</dl></section>`,
    bars('codes', 'Records per status code', codes),
    s.op === 'search' ? bars('matchlevels', 'Processed records per matchlevel', levels) : '',
    s.op === 'search' ? `<section class="card"><h2>Relevance</h2>${histogram(s.relevance)}</section>` : '',
    bars('countries', 'Records per country', countries),
    s.op === 'search' ? `<section class="card wide"><h2>Where the answers are</h2>${renderMap(s.grids)}</section>` : '',
    meta.unreadable ? unreadableSection(meta.unreadable, meta.unit) : '',
    rowsTable(s, meta.unit),
    '</div>',
    `<footer>Made by addrflow. Country outlines: Natural Earth (public domain), via the world-atlas package. This file fetches nothing; it can be archived and mailed as it is.</footer>`,
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>addrflow job report · ${esc(s.op)} · ${esc(meta.input)}</title>
<style>${CSS}</style></head>
<body><main>
${body.filter(Boolean).join('\n')}
</main></body></html>
`;
}
