/**
 * Output equivalence of two versions of the lookup engine, byte for byte: `parseRequest` and
 * `lookup` (old vs the working tree) on the eval suites' requests, the geocoder cases, the
 * parser-case inputs and fuzzed requests; the folding functions on a large random corpus
 * (pure ASCII, Latin, every code point below U+30000, random Unicode with combining marks,
 * ligatures, full-width forms, Greek, Cyrillic, emoji, lone surrogates). Exits 1 on a difference.
 *
 *   git archive BASE src | tar -x -C .cache/base
 *   ADDRFLOW_DATA_DIR=… node tools/lookup-equivalence-parse.ts .cache/base [--quick] [--eval DIR] [--real DIR]
 *
 * The indexes are read, never built: --eval (default /work/main/.cache/eval) holds the eval's
 * cached li, cph, bano, nominatim and default indexes, --real (default
 * /work/main/.cache/index-scale/idx-real) a real-data index.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadIndexFile } from '../src/data/index-file.ts';
import { openIndex as openNew, type AddressIndex } from '../src/engine/index/index.ts';
import { lookup as lookupNew } from '../src/engine/lookup/index.ts';
import { parseRequest as parseNew } from '../src/engine/lookup/parse/parse.ts';
import * as normNew from '../src/engine/lookup/normalize/normalize.ts';
import type { SearchRequest } from '../src/contract/requests.ts';
import { VARIANTS, banoTruth, osmTruth, runSuite, D } from '../eval/lookup/suites.ts';
import { heldOutSuites, peliasCases, postcodePairs, runHeldOut, runPairs } from '../eval/lookup/fallback-suites.ts';
import { nominatimCases } from '../eval/lookup/cases.ts';
import { mulberry32 } from './prng.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { quick: { type: 'boolean' }, eval: { type: 'string' }, real: { type: 'string' } },
});
if (positionals.length !== 1) throw new Error('usage: lookup-equivalence-parse.ts BASE_DIR [--quick] [--eval DIR] [--real DIR]');
const base = resolve(positionals[0]!, 'src/engine');
const { openIndex: openOld } = await import(`${base}/index/index.ts`);
const { lookup: lookupOld } = await import(`${base}/lookup/index.ts`);
const { parseRequest: parseOld } = await import(`${base}/lookup/parse.ts`);
const normOld = await import(`${base}/lookup/normalize.ts`);
const quick = values.quick === true;
let compared = 0, diffs = 0;
const report = (what: string, a: string, b: string, input: unknown) => {
  diffs++;
  if (diffs <= 20) console.log(`DIFF ${what}: ${JSON.stringify(input)}\n  old ${a}\n  new ${b}`);
};

// ---- folding on a random corpus -------------------------------------------------------------
const POOL = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789     ,.;-/#\'’"()&+:\n\t',
  ...'äöüÄÖÜßẞéèêëàâîïôûùçñÑøØæÆœŒåÅłŁđĐðÐþÞıİħĦŧŋĸſŀĿčšžřěůýáíóúőűăâșțşţ',
  ...'ﬁﬂﬀﬃ０１２３４５６７８９ＡＢＣａｂｃ①②½¼²³ªºµ™℃№ǅǆǈǉ\u00a0\u2009\u200b\u00ad\u2013\u2014',
  ...'\u0301\u0300\u0308\u0327\u030c\u0323\u20dd\u0345',
  ...'αβγδεζηθικλμνξοπρσςτυφχψωΑΒΓΔΆΈΉΊΌΎΏάέήίόύώϊϋΐΰ',
  ...'абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ',
  ...'中文日本語한국어ｶﾀｶﾅ', '😀', '🏠', '👍🏽', '\u{1d400}', '\u{1d7ce}', 'ǰ', 'İ', 'ẞ', 'Ω', 'K', 'Å', '\ud800',
];
const rnd = mulberry32(7);
function randomString(maxLen: number): string {
  const n = Math.floor(rnd() * maxLen);
  let s = '';
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.75) s += POOL[Math.floor(rnd() * POOL.length)]!;
    else if (r < 0.97) s += String.fromCodePoint(Math.floor(rnd() * 0x3000));
    else s += String.fromCodePoint(Math.floor(rnd() * 0x10ffff)); // incl. lone surrogates
  }
  return s;
}
function mutate(s: string): string {
  const k = Math.floor(rnd() * 4);
  const p = Math.floor(rnd() * (s.length + 1));
  const c = POOL[Math.floor(rnd() * POOL.length)]!;
  if (k === 0) return s.slice(0, p) + c + s.slice(p);
  if (k === 1) return s.slice(0, p) + s.slice(p + 1);
  if (k === 2) return s.toUpperCase();
  return s.slice(0, p) + c + s.slice(p + 1);
}

const foldCorpus: string[] = [];
const N_FOLD = quick ? 100_000 : 600_000;
for (let i = 0; i < N_FOLD; i++) {
  // half pure ASCII (the fast path), half anything
  if (i % 2 === 0) { let s = ''; const n = Math.floor(rnd() * 40); for (let j = 0; j < n; j++) s += String.fromCharCode(Math.floor(rnd() * 128)); foldCorpus.push(s); }
  else foldCorpus.push(randomString(30));
}
// Latin-range text (the table fast path): letters of U+0000–U+024F, now and then a separator
for (let i = 0; i < (quick ? 50_000 : 400_000); i++) {
  let s = ''; const n = Math.floor(rnd() * 30);
  for (let j = 0; j < n; j++) s += String.fromCharCode(rnd() < 0.3 ? 32 + Math.floor(rnd() * 96) : Math.floor(rnd() * 0x250));
  foldCorpus.push(s);
}
// every single code point of the BMP and the first astral planes, alone and between ASCII
for (let cp = 0; cp < 0x30000; cp++) { const ch = String.fromCodePoint(cp); foldCorpus.push(ch, `a${ch}b`, `${ch}1`); }
for (const s of foldCorpus) {
  for (const f of ['foldText', 'foldTokens', 'houseNumberKey', 'postcodeKey', 'looksLikeHouseNumber'] as const) {
    const a = JSON.stringify((normOld[f] as (x: string) => unknown)(s));
    const b = JSON.stringify((normNew[f] as (x: string) => unknown)(s));
    compared++;
    if (a !== b) report(f, a, b, s);
  }
}
console.log(`fold: ${foldCorpus.length} strings, diffs so far ${diffs}`);

// ---- requests -------------------------------------------------------------------------------
function cmpParse(r: SearchRequest) {
  const a = JSON.stringify(parseOld(r));
  const b = JSON.stringify(parseNew(r));
  compared++;
  if (a !== b) report('parseRequest', a, b, r);
}
const olds = new Map<AddressIndex, unknown>();
let nLookups = 0;
function cmpLookup(idx: AddressIndex, r: SearchRequest) {
  const a = JSON.stringify(lookupOld(olds.get(idx) as never, r));
  const b = JSON.stringify(lookupNew(idx, r));
  compared++; nLookups++;
  if (a !== b) report('lookup', a, b, r);
  cmpParse(r);
  return JSON.parse(b);
}
const recording = (i: AddressIndex, r: SearchRequest) => cmpLookup(i, r);

async function open(dir: string): Promise<AddressIndex> {
  const buf = await loadIndexFile(dir);
  const idx = openNew(buf);
  olds.set(idx, openOld(buf));
  return idx;
}
const EVAL = values.eval ?? '/work/main/.cache/eval';
const evalDir = (name: string) => `${EVAL}/${readdirSync(EVAL).find((d) => d.startsWith(`${name}-`))}`;

const limitTruth = <T>(a: T[]) => (quick ? a.slice(0, 150) : a.slice(0, 1500));
const suiteIdx: Record<string, AddressIndex> = {};
for (const name of ['li', 'cph', 'bano', 'nominatim', 'default']) suiteIdx[name] = await open(evalDir(name));
runSuite(suiteIdx.li!, limitTruth(osmTruth('osm-liechtenstein-2024')), VARIANTS, recording);
runSuite(suiteIdx.cph!, limitTruth(osmTruth('osm-copenhagen-dk-2012')), VARIANTS, recording);
runSuite(suiteIdx.bano!, limitTruth(banoTruth(3000)), VARIANTS, recording);
console.log(`suites: ${nLookups} lookups, diffs so far ${diffs}`);
nominatimCases(suiteIdx.nominatim!, recording);
for (const s of heldOutSuites()) runHeldOut(suiteIdx[s.index]!, limitTruth(s.truth()), recording);
for (const { source, pairs } of postcodePairs()) runPairs(suiteIdx.default!, source, quick ? pairs.slice(0, 200) : pairs, recording);
peliasCases(suiteIdx.default!, recording);
console.log(`cases: ${nLookups} lookups, diffs so far ${diffs}`);

// parser-case inputs as free text, on the default index and idx-real
const real = await open(values.real ?? '/work/main/.cache/index-scale/idx-real');
const parserInputs: string[] = [];
for (const f of ['libpostal-parser', 'pelias-parser']) {
  for (const c of JSON.parse(readFileSync(D('geocoder-cases', f, 'parser-cases.json'), 'utf8')) as { input: string }[]) parserInputs.push(c.input);
}
for (const s of parserInputs) { cmpLookup(suiteIdx.default!, { address: s }); cmpLookup(real, { address: s }); }
console.log(`parser inputs: ${parserInputs.length}, lookups ${nLookups}, diffs so far ${diffs}`);

// fuzzed requests: random Unicode and mutated real queries, all fields, with locales
const seeds = limitTruth(banoTruth(3000));
const LOCALES = ['', 'de', 'fr-FR', 'en_GB', 'it', 'xx'];
const N_FUZZ = quick ? 3000 : 30000;
for (let i = 0; i < N_FUZZ; i++) {
  const t = seeds[i % seeds.length]!;
  let m = (s: string) => (rnd() < 0.5 ? mutate(s) : s);
  if (i % 5 === 0) m = () => randomString(25);
  const r: SearchRequest = i % 2 === 0
    ? { address: m(`${t.street} ${t.hn}, ${t.postcode} ${t.city}${rnd() < 0.2 ? ', ' + m('France') : ''}`) }
    : { street: m(t.street), housenumber: m(t.hn), zip: m(t.postcode), city: m(t.city) };
  if (rnd() < 0.2) r.country = m(['FR', 'fra', 'Frankreich', 'Deutschland', ''][i % 5]!);
  if (rnd() < 0.2) r.state = m('Corse');
  if (rnd() < 0.1) r.county = m('Lozère');
  if (rnd() < 0.1) r.district = m('Centre');
  const loc = LOCALES[i % LOCALES.length]!; if (loc) r.locale = loc;
  cmpLookup(real, r);
  if (i % 3 === 0) cmpLookup(suiteIdx.default!, r);
}
console.log(`fuzz: lookups ${nLookups}, diffs so far ${diffs}`);
console.log(`compared ${compared} outputs (${nLookups} lookups), ${diffs} differences`);
process.exit(diffs === 0 ? 0 : 1);
