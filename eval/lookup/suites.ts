/**
 * Evaluation building blocks (shared by `npm run eval:lookup` and the vitest floors):
 * cached index builds from ../shared/data, reference address suites, query variants, metrics.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT, sharedDataPath } from '../../src/config/shared-data.ts';
import { buildIndexDir, type IndexSources } from '../../src/data/build-index.ts';
import { defaultLayerPath } from '../../src/data/readers/default-layer.ts';
import { loadIndexFile } from '../../src/data/index-file.ts';
import { INDEX_FORMAT_VERSION } from '../../src/engine/index/format.ts';
import { openIndex, type AddressIndex } from '../../src/engine/index/index.ts';
import { abbreviationsOf, countryLanguages } from '../../src/engine/lookup/normalize/abbreviations.ts';
import { foldText, houseNumberKey } from '../../src/engine/lookup/normalize/normalize.ts';
import type { SearchRequest } from '../../src/contract/requests.ts';
import type { SearchRecord } from '../../src/contract/records.ts';
import { distanceMeters } from '../../src/data/geo.ts';
import { splitCsv } from '../../src/data/readers/lines.ts';
import { gunzipSync } from 'node:zlib';
import { mulberry32 } from '../support/prng.ts';

export const D = (...p: string[]) => sharedDataPath(...p);

export const INDEXES: Record<string, IndexSources> = {
  /** The embedded default alone (the default layer every build includes). */
  default: {},
  li: {
    osm: [D('osm-liechtenstein-2024', 'liechtenstein-2024-03-04.osm.pbf')],
    geonamesPostcodes: ['LI', 'AT', 'CH'].map((c) => D('geonames-postalcodes', `${c}.csv.gz`)),
  },
  cph: {
    osm: [D('osm-copenhagen-dk-2012', 'copenhagen-kbh-2012.osm.pbf')],
    geonamesPostcodes: [D('geonames-postalcodes', 'DK.csv.gz')],
  },
  bano: {
    bano: ['90', '2A', '48'].map((d) => D('bano-fr-2015', `bano-${d}.csv.gz`)),
    geonamesPostcodes: [D('geonames-postalcodes', 'FR.csv.gz')],
  },
  nominatim: {
    osm: [D('osm-liechtenstein-nominatim-testdb-2021', 'apidb-test-data.osm.pbf')],
    geonamesPostcodes: ['LI', 'AT', 'CH'].map((c) => D('geonames-postalcodes', `${c}.csv.gz`)),
  },
  bench: {
    osm: [D('osm-liechtenstein-2024', 'liechtenstein-2024-03-04.osm.pbf'), D('osm-copenhagen-dk-2012', 'copenhagen-kbh-2012.osm.pbf')],
    bano: readdirSafe(D('bano-fr-2015')).filter((f) => f.endsWith('.csv.gz')).map((f) => D('bano-fr-2015', f)),
    geonamesPostcodes: ['LI', 'AT', 'CH', 'DK', 'FR'].map((c) => D('geonames-postalcodes', `${c}.csv.gz`)),
  },
};

function readdirSafe(dir: string): string[] {
  try { return readdirSync(dir).sort(); } catch { return []; }
}

/** Cache key: format version, the sources (path, size, mtime) and the build code's sources. */
function cacheKey(src: IndexSources): string {
  const h = createHash('sha256');
  h.update(String(INDEX_FORMAT_VERSION));
  for (const f of [...(src.osm ?? []), ...(src.bano ?? []), ...(src.openaddresses ?? []), ...(src.geonamesPostcodes ?? []), defaultLayerPath()]) {
    const st = statSync(f);
    h.update(`${f}:${st.size}:${st.mtimeMs}`);
  }
  for (const dir of ['src/data', 'src/data/build', 'src/data/readers', 'src/engine/lookup/normalize', 'src/engine/index']) {
    for (const f of readdirSafe(resolve(PROJECT_ROOT, dir)).filter((x) => x.endsWith('.ts'))) {
      h.update(readFileSync(resolve(PROJECT_ROOT, dir, f)));
    }
  }
  return h.digest('hex').slice(0, 16);
}

export interface CachedIndex { index: AddressIndex; dir: string; buildMs?: number; addressPoints?: number }

export async function cachedIndex(name: string): Promise<CachedIndex> {
  const src = INDEXES[name]!;
  const dir = resolve(PROJECT_ROOT, '.cache', 'eval', `${name}-${cacheKey(src)}`);
  try {
    return { index: openIndex(await loadIndexFile(dir)), dir };
  } catch {
    const t = performance.now();
    const stats = await buildIndexDir(dir, src);
    return { index: openIndex(await loadIndexFile(dir)), dir, buildMs: performance.now() - t, addressPoints: stats.addressPoints };
  }
}

export interface Truth { street: string; hn: string; postcode: string; city: string; country: string; lat: number; lon: number; /** Italy's province sigla (GeoNames `province_code`), where the source has it. */ province?: string }

function readCsvText(path: string): string {
  const b = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(b) : b).toString('utf8');
}

/** addresses.csv of the OSM extracts: rows with street, house number and city. */
export function osmTruth(folder: string): Truth[] {
  const lines = readCsvText(D(folder, 'addresses.csv')).split('\n');
  const out: Truth[] = [];
  for (const l of lines.slice(1)) {
    if (!l) continue;
    const f = splitCsv(l);
    const [, lon, lat, hn, street, , postcode, city, country] = f;
    if (!street || !hn || !city) continue;
    out.push({ street, hn, postcode: postcode ?? '', city: city.replace(/\s*\((FL|LI)\)\s*$/, ''), country: country ?? '', lat: Number(lat), lon: Number(lon) });
  }
  return out;
}

/** A deterministic sample of BANO rows from the départements in the bano index. */
export function banoTruth(n: number): Truth[] {
  const all: Truth[] = [];
  for (const f of INDEXES.bano!.bano!) {
    for (const l of readCsvText(f).split('\n')) {
      if (!l) continue;
      const x = splitCsv(l);
      if (x.length < 8) continue;
      all.push({ street: x[2]!, hn: x[1]!, postcode: x[3]!, city: x[4]!, country: 'FR', lat: Number(x[6]), lon: Number(x[7]) });
    }
  }
  return sample(all, n, 42);
}

export function sample<T>(a: T[], n: number, seed: number): T[] {
  if (n >= a.length) return a;
  const rnd = mulberry32(seed);
  const idx = new Set<number>();
  while (idx.size < n) idx.add(Math.floor(rnd() * a.length));
  return [...idx].sort((x, y) => x - y).map((i) => a[i]!);
}


export const VARIANTS = [
  'clean structured', 'free text: street hn, zip city', 'free text: zip city street hn', 'free text: hn street city zip',
  'no postcode', 'one typo in street', 'abbreviated street type', 'lowercase without accents', 'wrong postcode',
] as const;
export type Variant = (typeof VARIANTS)[number];

/** One mistake (a letter dropped, added, changed or transposed) in the longest word of `s`, if it has five letters or more. */
export function typo(s: string, rnd: () => number): string {
  const words = s.split(' ');
  let wi = 0;
  words.forEach((w, i) => { if (w.length > words[wi]!.length) wi = i; });
  const w = words[wi]!;
  if (w.length < 5) return s;
  const p = 1 + Math.floor(rnd() * (w.length - 2));
  const k = Math.floor(rnd() * 4);
  const letters = 'abcdefghiklmnoprstuvz';
  const c = letters[Math.floor(rnd() * letters.length)]!;
  const nw = k === 0 ? w.slice(0, p) + w.slice(p + 1) // deletion
    : k === 1 ? w.slice(0, p) + c + w.slice(p) // insertion
      : k === 2 ? w.slice(0, p) + (w[p] === c ? 'x' : c) + w.slice(p + 1) // substitution
        : w.slice(0, p) + w[p + 1] + w[p] + w.slice(p + 2); // transposition
  words[wi] = nw;
  return words.join(' ');
}

/** Abbreviates the street type (Straße → Str., Avenue → Av., Gammel → Gl.); '' when none applies. */
export function abbreviate(street: string, country: string): string {
  const langs = countryLanguages(country);
  if (langs.includes('de')) {
    const m = /(stra(?:ss|ß)e)\b/i.exec(street);
    if (m) return street.replace(m[1]!, 'str.');
  }
  const words = street.split(' ');
  for (let i = 0; i < words.length; i++) {
    const f = foldText(words[i]!);
    for (const l of langs) {
      const ab = abbreviationsOf(f, l).filter((a) => a.length < f.length).sort((a, b) => a.length - b.length)[0];
      if (ab) { words[i] = ab.charAt(0).toUpperCase() + ab.slice(1) + '.'; return words.join(' '); }
    }
  }
  return '';
}

export function stripAccents(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function makeQuery(t: Truth, v: Variant, other: string, rnd: () => number): SearchRequest | undefined {
  const s = { street: t.street, housenumber: t.hn, zip: t.postcode, city: t.city };
  const zipCity = t.postcode ? `${t.postcode} ${t.city}` : t.city;
  switch (v) {
    case 'clean structured': return pick(s);
    case 'free text: street hn, zip city': return { address: `${t.street} ${t.hn}, ${zipCity}` };
    case 'free text: zip city street hn': return { address: `${zipCity}, ${t.street} ${t.hn}` };
    case 'free text: hn street city zip': return { address: `${t.hn} ${t.street} ${t.city} ${t.postcode}`.trim() };
    case 'no postcode': return pick({ ...s, zip: '' });
    case 'one typo in street': { const ts = typo(t.street, rnd); return ts === t.street ? undefined : pick({ ...s, street: ts }); }
    case 'abbreviated street type': { const a = abbreviate(t.street, t.country); return a ? pick({ ...s, street: a }) : undefined; }
    case 'lowercase without accents': return { address: stripAccents(`${t.street} ${t.hn}, ${zipCity}`) };
    case 'wrong postcode': return t.postcode && other && other !== t.postcode ? pick({ ...s, zip: other }) : undefined;
  }
}

function pick(s: Record<string, string>): SearchRequest {
  const o: Record<string, string> = {};
  for (const [k, v] of Object.entries(s)) if (v) o[k] = v;
  return o as SearchRequest;
}

export interface VariantResult { variant: Variant; n: number; hnRate: number; p50: number; p90: number; p99: number; rel90: number; rel90Correct: number; avgRelevance: number }

/** Correct = house-number level, same house number, within 150 m of the reference point. */
export function isCorrect(t: Truth, r: SearchRecord): { correct: boolean; dist: number } {
  if (r.matchlevel !== 'housenumber') return { correct: false, dist: NaN };
  const dist = distanceMeters(t.lat, t.lon, Number(r.latitude), Number(r.longitude));
  const sameHn = houseNumberKey(r.housenumber) === houseNumberKey(t.hn) || houseNumberKey(r.housenumber).startsWith(houseNumberKey(t.hn) + '-');
  return { correct: sameHn && dist <= 150, dist };
}

function pct(a: number[], p: number): number {
  if (a.length === 0) return NaN;
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

export function runSuite(
  index: AddressIndex, truth: Truth[], variants: readonly Variant[], lookupFn: (i: AddressIndex, r: SearchRequest) => SearchRecord,
): { results: VariantResult[]; pooled: { rel90: number; rel90Correct: number } } {
  const postcodes = [...new Set(truth.map((t) => t.postcode).filter(Boolean))];
  const results: VariantResult[] = [];
  let pooled90 = 0, pooled90c = 0;
  for (const v of variants) {
    const rnd = mulberry32(7);
    let n = 0, ok = 0, r90 = 0, r90c = 0, relSum = 0;
    const dists: number[] = [];
    truth.forEach((t, i) => {
      let other = postcodes[Math.floor(rnd() * postcodes.length)] ?? '';
      if (other === t.postcode) other = postcodes[(postcodes.indexOf(other) + 1) % postcodes.length] ?? '';
      const q = makeQuery(t, v, other, rnd);
      if (!q) return;
      void i;
      const r = lookupFn(index, q);
      n++;
      const { correct, dist } = isCorrect(t, r);
      if (correct) ok++;
      if (Number.isFinite(dist)) dists.push(dist);
      const rel = Number(r.relevance);
      relSum += rel;
      if (rel >= 90) { r90++; if (correct) r90c++; }
    });
    pooled90 += r90; pooled90c += r90c;
    results.push({
      variant: v, n, hnRate: n ? ok / n : NaN, p50: pct(dists, 50), p90: pct(dists, 90), p99: pct(dists, 99),
      rel90: r90, rel90Correct: r90 ? r90c / r90 : NaN, avgRelevance: n ? relSum / n : NaN,
    });
  }
  return { results, pooled: { rel90: pooled90, rel90Correct: pooled90 ? pooled90c / pooled90 : NaN } };
}

export function cachedDir(name: string): string {
  return join(PROJECT_ROOT, '.cache', 'eval', name);
}
