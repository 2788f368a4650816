/**
 * Index build orchestration: streams every given source through its reader into the builder
 * (a SourceSink), always adds the default layer, checks that every address source yielded
 * addresses, and writes DIR/index.bin (streamed) + DIR/meta.json with a per-source summary.
 * Used by `addrflow index build`, the evaluation and the benchmarks.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { INDEX_FILE_NAME } from '../engine/index/format.ts';
import { IndexBuildError, INDEX_BUILD_ERRORS } from './build-errors.ts';
import { ProgressReporter } from './build/progress.ts';
import { IndexBuilder, type BuildProgress, type SourceSummary } from './index-builder.ts';
import { readBan } from './readers/ban.ts';
import { readBano } from './readers/bano.ts';
import { readDefaultLayer } from './readers/default-layer.ts';
import { readGeonamesPostcodes } from './readers/geonames-postcodes.ts';
import { readOpenAddresses } from './readers/openaddresses.ts';
import { createOsmPbfReader } from './readers/osm-pbf/index.ts';
import type { SourceCounts, SourceReader } from './source-sink.ts';

export type SourceKind = 'osm' | 'ban' | 'bano' | 'openaddresses' | 'geonames-postcodes';

/** One input file and its format. */
export interface SourceFile { kind: SourceKind; path: string }

/**
 * The reader of each format; `addresses` marks formats that must yield address points. The OSM
 * reader spills its needed-node ids under the build's temp dir.
 */
export function readerFor(kind: SourceKind, tmpDir: string | undefined): { read: SourceReader; addresses: boolean } {
  switch (kind) {
    case 'osm': return { read: createOsmPbfReader(tmpDir ? { tmpDir } : {}), addresses: true };
    case 'ban': return { read: readBan, addresses: true };
    case 'bano': return { read: readBano, addresses: true };
    case 'openaddresses': return { read: readOpenAddresses, addresses: true };
    case 'geonames-postcodes': return { read: readGeonamesPostcodes, addresses: false };
  }
}

export interface IndexSources {
  osm?: string[];
  /** BAN `adresses-france.csv` / `adresses-NN.csv` (plain or .gz). */
  ban?: string[];
  bano?: string[];
  openaddresses?: string[];
  geonamesPostcodes?: string[];
  /** The files in command-line order (the first wins duplicates); overrides the lists above. */
  files?: SourceFile[];
}

export function sourceFiles(src: IndexSources): SourceFile[] {
  if (src.files) return src.files;
  return [
    ...(src.geonamesPostcodes ?? []).map((path) => ({ kind: 'geonames-postcodes' as const, path })),
    ...(src.osm ?? []).map((path) => ({ kind: 'osm' as const, path })),
    ...(src.ban ?? []).map((path) => ({ kind: 'ban' as const, path })),
    ...(src.bano ?? []).map((path) => ({ kind: 'bano' as const, path })),
    ...(src.openaddresses ?? []).map((path) => ({ kind: 'openaddresses' as const, path })),
  ];
}

/**
 * The default layer every index carries (assets/default-layer: the places and postcodes of the 34
 * destinations with their ISO 3166-2 states and counties), so that a built index answers at least
 * as well as the embedded default for the places it lacks; it also gives rows without a country
 * or city the nearest place's.
 */
export async function addDefaultLayer(b: IndexBuilder): Promise<void> {
  await readDefaultLayer(b.source('default-layer:assets/default-layer'));
}

export interface BuildIndexOptions {
  tmpDir?: string;
  /** A ProgressReporter (the CLI's), or nothing for a quiet build. */
  progress?: ProgressReporter;
}

export interface BuildReport {
  dir: string;
  bytes: number;
  /** Address points in the index (after merging duplicates). */
  addressPoints: number;
  /** Address rows taken from the sources. */
  addressRows: number;
  duplicatesMerged: number;
  peakTempBytes: number;
  readMs: number;
  buildMs: number;
  sources: SourceSummary[];
}

/** Builds the index of `src` into `dir` (index.bin + meta.json). */
export async function buildIndexDir(dir: string, src: IndexSources, opts: BuildIndexOptions = {}): Promise<BuildReport> {
  const files = sourceFiles(src);
  for (const f of files) {
    if (!existsSync(f.path) || !statSync(f.path).isFile()) {
      throw new IndexBuildError(INDEX_BUILD_ERRORS.SOURCE_UNREADABLE, f.path, 'no such file');
    }
  }
  if (opts.tmpDir) mkdirSync(opts.tmpDir, { recursive: true });
  const t0 = performance.now();
  const pr = opts.progress;
  const quiet: BuildProgress = { phase() {}, tick() {} };
  const b = new IndexBuilder({ tmpDir: opts.tmpDir, progress: pr ?? quiet });
  pr?.countRows(() => b.rowCount);
  pr?.reading('default layer');
  await addDefaultLayer(b);
  for (const f of files) {
    const label = `${f.kind}:${f.path}`;
    const sink = b.source(label);
    pr?.reading(basename(f.path));
    const { read, addresses } = readerFor(f.kind, opts.tmpDir);
    try {
      await read(f.path, sink, pr ? (d, t) => pr.bytes(d, t) : undefined);
    } catch (err) {
      throw new IndexBuildError(INDEX_BUILD_ERRORS.SOURCE_UNREADABLE, f.path, `cannot be read as ${f.kind}: ${readerCode(err)}${(err as Error).message}`);
    }
    const counts = b.summary.at(-1)!.counts;
    if (addresses && counts.addresses === 0) {
      const why = rejectedText(counts);
      throw new IndexBuildError(INDEX_BUILD_ERRORS.SOURCE_EMPTY, f.path,
        `yielded 0 addresses as ${f.kind}${why ? ` (rows rejected: ${why})` : ' (no rows)'}; is it the right format and flag?`);
    }
  }
  const t1 = performance.now();
  const addressRows = b.addressCount;
  mkdirSync(dir, { recursive: true });
  const r = b.writeTo(join(dir, INDEX_FILE_NAME));
  pr?.end();
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...r.meta, sourceCounts: b.summary }, null, 2) + '\n');
  return {
    dir, bytes: r.bytes, addressPoints: r.meta.counts.addresses ?? 0, addressRows, duplicatesMerged: r.merged, peakTempBytes: r.peakTempBytes,
    readMs: t1 - t0, buildMs: performance.now() - t1, sources: b.summary,
  };
}

/**
 * Rejected rows per reason, most first; a reason whose rows' lines are known names the first few
 * (`1 unclosed-quote (line 11)`, `7 unclosed-quote (lines 11, 57, 90, 91, 95, …)`).
 */
function rejectedText(c: SourceCounts): string {
  return Object.entries(c.rejected).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([r, n]) => {
    const lines = c.rejectedLines?.[r];
    if (!lines?.length) return `${n} ${r}`;
    return `${n} ${r} (line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}${n > lines.length ? ', …' : ''})`;
  }).join(', ');
}

/** The per-source summary as text lines (counts and rejected rows per reason). */
export function summaryLines(sources: SourceSummary[]): string[] {
  return sources.map(({ label, counts: c }) => {
    const kept = [
      c.addresses && `${c.addresses} addresses`, c.lines && `${c.lines} streets`, c.places && `${c.places} places`,
      c.postcodes && `${c.postcodes} postcodes`, c.admins && `${c.admins} admin areas`,
    ].filter(Boolean).join(', ') || 'nothing kept';
    return `${label}: ${kept}; rejected: ${rejectedText(c) || 'none'}`;
  });
}

/** `ADDR_ERR_OSM_PBF_…: ` when a reader's error carries its own code (docs/errors.md), else nothing. */
function readerCode(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('ADDR_ERR_') ? `${code}: ` : '';
}
