/**
 * What the job report costs: `addrflow run` over the same file without `--report`, with
 * `--report` (50 rows, the default) and with `--report-rows 0`, alternated, median of three runs
 * each, records/s and CPU seconds with their ratios to the run without a report (the same-run
 * baseline); peak RSS,
 * and the size of the HTML file. Lines (1M generated records, the fast path where a per-record
 * cost shows most) and search (200k generated city requests on the embedded world city layer,
 * so the map is drawn).
 *
 *   npm run bench -- report                  (ADDRFLOW_BENCH_QUICK=1 for 200k / 50k records)
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { generateLines } from '../scripts/generate-requests.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = `${root}.cache/bench`;
mkdirSync(cache, { recursive: true });
const quick = process.env.ADDRFLOW_BENCH_QUICK === '1';
const LINES = quick ? 200_000 : 1_000_000;
const SEARCH = quick ? 50_000 : 200_000;
const RUNS = 3;

const CITIES: Array<[string, string]> = [
  ['Paris', 'FR'], ['Lyon', 'FR'], ['Berlin', 'DE'], ['Hamburg', 'DE'], ['Madrid', 'ES'], ['Roma', 'IT'], ['Wien', 'AT'],
  ['Warszawa', 'PL'], ['Lisboa', 'PT'], ['Stockholm', 'SE'], ['London', 'GB'], ['Praha', 'CZ'], ['Sydney', 'AU'],
  ['Toronto', 'CA'], ['Chicago', 'US'], ['Osaka', 'JP'], ['Qqqzzzville', 'DE'],
];

async function write(path: string, lines: Iterable<string>): Promise<string> {
  if (existsSync(path)) return path;
  const out = createWriteStream(path);
  let buf = '';
  for (const line of lines) {
    buf += line + '\n';
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'close');
  return path;
}

function* searchLines(n: number): Generator<string> {
  for (let i = 0; i < n; i++) {
    const [city, cc] = CITIES[i % CITIES.length]!;
    yield JSON.stringify({ id: i + 1, city, countrycode: cc });
  }
}

/** CPU seconds (user + system, all threads) come from /usr/bin/time: on a shared, loaded machine
 * they say what the report costs far more steadily than the wall clock does. */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

function job(path: string, op: string, extra: string[]): { ms: number; rssMB: number; cpuS: number } {
  const t = performance.now();
  const cmd = [process.execPath, `${root}bin/addrflow.ts`, 'run', '--op', op, '--input', path, '--output', '/dev/null', '--workers', '2', '--progress', 'off', ...extra];
  const r = spawnSync(TIME ?? cmd[0]!, TIME ? ['-f', 'cpu %U %S', ...cmd] : cmd.slice(1), {
    encoding: 'utf8', env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn' }, maxBuffer: 1 << 24,
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`job failed: ${r.stderr}`);
  const rss = /peak RSS: (\d+) MB/.exec(r.stderr);
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { ms, rssMB: rss ? Number(rss[1]) : NaN, cpuS: cpu ? Number(cpu[1]) + Number(cpu[2]) : NaN };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString('en');

async function compare(op: 'lines' | 'search', path: string, n: number): Promise<void> {
  const html = `${cache}/report-${op}.html`;
  const variants: Array<[string, string[]]> = [
    ['no report', []],
    ['--report', ['--report', html]],
    ['--report-rows 0', ['--report', html, '--report-rows', '0']],
  ];
  const times = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  const rss = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  const cpu = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  let size = 0;
  for (let run = 0; run < RUNS; run++) {
    for (const [name, extra] of variants) {
      const r = job(path, op, extra);
      times.get(name)!.push(r.ms);
      rss.get(name)!.push(r.rssMB);
      cpu.get(name)!.push(r.cpuS);
      if (name === '--report') size = statSync(html).size;
    }
  }
  const base = median(times.get('no report')!);
  const baseCpu = median(cpu.get('no report')!);
  console.log(`\n${op}: ${fmt(n)} records, 2 workers, median of ${RUNS} (process start included)`);
  console.log('variant            records/s   ratio   CPU s   CPU ratio   peak RSS');
  for (const [name] of variants) {
    const ms = median(times.get(name)!);
    const c = median(cpu.get(name)!);
    console.log(`${name.padEnd(18)} ${fmt((n * 1000) / ms).padStart(9)}   ${(base / ms).toFixed(2).padStart(5)}   ${c.toFixed(1).padStart(5)}   ${(c / baseCpu).toFixed(2).padStart(9)}   ${fmt(median(rss.get(name)!))} MB`);
  }
  console.log(`report file: ${(size / 1024).toFixed(0)} KiB`);
}

await compare('lines', await write(`${cache}/lines-${LINES}.ndjson`, generateLines(LINES, 42, 0)), LINES);
await compare('search', await write(`${cache}/search-cities-${SEARCH}.ndjson`, searchLines(SEARCH)), SEARCH);
