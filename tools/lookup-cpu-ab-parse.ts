/**
 * CPU per clean lookup (or per `parseRequest`), a base version vs the working tree, alternated
 * round by round in one process over one index buffer (a loaded machine drifts; alternation
 * keeps the comparison fair). The queries are the clean ones of the lead's lookup mix (real
 * BANO rows; ADDRFLOW_DATA_DIR must point at the shared data).
 *
 *   git archive BASE src | tar -x -C .cache/base
 *   node tools/lookup-cpu-ab-parse.ts .cache/base INDEX_DIR [ROUNDS] [MS] [parse] [fresh]
 *
 * `parse`: time parseRequest only. `fresh`: 90k+ distinct queries, none repeated (the index
 * memos start cold for each); otherwise 2,100 queries cycled. "without index memos" runs the new
 * lookup code on the base version's index class.
 */
import { resolve } from 'node:path';
import { loadIndexFile } from '../src/data/index-file.ts';
import { openIndex as openNew } from '../src/engine/index/index.ts';
import { lookup as lookupNew } from '../src/engine/lookup/index.ts';
import { parseRequest as parseNew } from '../src/engine/lookup/parse/parse.ts';
import type { SearchRequest } from '../src/contract/requests.ts';
import { sample, type Truth } from '../eval/lookup/suites.ts';
import { readBanoRows } from './gen-oa-national.ts';
import { mulberry32 } from './prng.ts';
const base = resolve(process.argv[2]!, 'src/engine');
const { openIndex: openOld } = await import(`${base}/index/index.ts`);
const { lookup: lookupOld } = await import(`${base}/lookup/index.ts`);
const { parseRequest: parseOld } = await import(`${base}/lookup/parse.ts`);
const dir = process.argv[3]!;
const rounds = Number(process.argv[4] ?? 3);
const ms = Number(process.argv[5] ?? 1500);
const parseOnly = process.argv.includes('parse');
const buf = await loadIndexFile(dir);
const idxNew = openNew(buf), idxOld = openOld(buf);
const realRows = readBanoRows();
const fresh = process.argv.includes('fresh');
const truth: Truth[] = sample(realRows, fresh ? 150000 : 3000, 11).map((r) => ({ street: r.street, hn: r.hn, postcode: r.postcode, city: r.city, country: 'FR', lat: r.lat, lon: r.lon }));
const postcodes = [...new Set(realRows.map((r) => r.postcode))];
function mix(free: boolean): SearchRequest[] {
  const rnd = mulberry32(5);
  const words = ['Tilleuls', 'Peupliers', 'Chardonnerets', 'Grenadiers', 'Mésanges', 'Pervenches'];
  return truth.map((t, i) => {
    let street = t.street, zip = t.postcode;
    const k = i % 10;
    if (k === 7) { const w = street.split(' '); const j = w.reduce((b, x, n) => (x.length > w[b]!.length ? n : b), 0); const x = w[j]!; if (x.length > 4) { const p = 1 + Math.floor(rnd() * (x.length - 2)); w[j] = x.slice(0, p) + x.slice(p + 1); } street = w.join(' '); }
    if (k === 8) street = `Allée des ${words[i % words.length]} ${100 + (i % 900)}`;
    if (k === 9) zip = postcodes[Math.floor(rnd() * postcodes.length)]!;
    return free ? { address: `${street} ${t.hn}, ${zip} ${t.city}` } : { street, housenumber: t.hn, zip, city: t.city };
  });
}
const CAT = ['clean', 'clean', 'clean', 'clean', 'clean', 'clean', 'clean', 'typo', 'unknown', 'wrongpc'];
const impls = {
  old: parseOnly ? (q: SearchRequest) => parseOld(q) : (q: SearchRequest) => lookupOld(idxOld, q),
  new: parseOnly ? (q: SearchRequest) => parseNew(q) : (q: SearchRequest) => lookupNew(idxNew, q),
  // the new lookup code on the old index class: without the index memos
  nomemo: parseOnly ? (q: SearchRequest) => parseNew(q) : (q: SearchRequest) => lookupNew(idxOld as never, q),
};
for (const free of [false, true]) {
  const sel = mix(free).filter((_, i) => CAT[i % 10] === 'clean');
  const res: Record<string, number[]> = { old: [], new: [], nomemo: [] };
  for (const f of Object.values(impls)) for (let i = 0; i < 2000; i++) f(sel[i % sel.length]!);
  // fresh: every query of a round is new to the memos (each round takes its own slice)
  let at = 2000;
  for (let r = 0; r < rounds; r++) {
    const from = at;
    for (const name of ([['old', 'new', 'nomemo'], ['new', 'nomemo', 'old'], ['nomemo', 'old', 'new']][r % 3]) as ('old' | 'new' | 'nomemo')[]) {
      const f = impls[name];
      let n = 0; const c0 = process.cpuUsage(); const t0 = performance.now();
      if (fresh) { while (performance.now() - t0 < ms && n < 15000) for (let k = 0; k < 100; k++) { f(sel[(from + n) % sel.length]!); n++; } at = Math.max(at, from + n); }
      else while (performance.now() - t0 < ms) for (const q of sel) { f(q); n++; }
      const c = process.cpuUsage(c0);
      res[name]!.push((c.user + c.system) / n);
    }
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
  console.log(`${free ? 'free  ' : 'struct'} clean ${parseOnly ? 'parse' : 'lookup'}: old ${med(res.old!).toFixed(1)} µs, new ${med(res.new!).toFixed(1)} µs, new without index memos ${med(res.nomemo!).toFixed(1)} µs  (nomemo ${res.nomemo!.map((x) => x.toFixed(1)).join(' ')} | old ${res.old!.map((x) => x.toFixed(1)).join(' ')} | new ${res.new!.map((x) => x.toFixed(1)).join(' ')})`);
}
