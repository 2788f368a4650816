/**
 * The index builder, a SourceSink: readers push rows into it (one source after the other, in
 * command-line order); `build()` / `writeTo()` then run the pipeline below. This file only
 * composes the stages; each stage is a module of src/data/build/stages with one job and its own
 * test (test/data/build/stages). The numbering here is the only one.
 *
 *    1. intake               rows into typed columns with interned strings, rejects counted (intake)
 *    2. place countries      a place without a country takes its nearest neighbour's (place-countries)
 *    3. point cities         countries and cities of the address points (point-cities)
 *    4. duplicates           the same address from two sources kept once (duplicates, build/dedup)
 *    5. street groups        points by (country, folded street, folded city) (street-groups)
 *    6. street parts         a group in several places split into parts (split-streets)
 *    7. house-number order   the addresses' order inside a document (house-number-order)
 *    8. street documents     one per part, with its geometry from the named lines (street-documents,
 *                            street-lines) and its address rows, spilled as they are produced
 *    9. line-only streets    lines no street document took (line-streets)
 *   10. place documents      (place-documents)
 *   11. postcode documents   (postcode-documents)
 *   12. tokens               token table by hash, postings, symmetric-delete keys (tokens)
 *   13. sections and meta    the index's columns and header (index-sections, index-meta)
 *   14. write                streamed section by section (build/index-writer)
 *
 * Stages 8–11 share the documents' and tokens' columns (stages/documents) and take their admin
 * ids from build/admin-index (an R-tree over the areas, an edge grid per polygon).
 *
 * Memory is the points' columns (~44 bytes a point, dropped after stage 9) plus the index being
 * produced; with a temporary directory the address columns are spilled to disk as they are
 * produced. Strings are interned on first use and the string table is the index's, so the
 * stages' order is part of the file's bytes.
 */
import type { ColumnName, IndexMeta } from '../engine/index/format.ts';
import { addressColumns } from './build/address-columns.ts';
import { AdminIndex } from './build/admin-index.ts';
import { indexBytes, writeIndexFile, type Section } from './build/index-writer.ts';
import { StringInterner } from './build/interner.ts';
import { noProgress, type BuildProgress } from './build/progress.ts';
import { TempDir } from './build/spill.ts';
import { Documents } from './build/stages/documents.ts';
import { dropDuplicates } from './build/stages/duplicates.ts';
import { houseNumberRanks } from './build/stages/house-number-order.ts';
import { indexMeta } from './build/stages/index-meta.ts';
import { indexSections } from './build/stages/index-sections.ts';
import { Intake, type SourceSummary } from './build/stages/intake.ts';
import { lineStreets } from './build/stages/line-streets.ts';
import { placeCountries } from './build/stages/place-countries.ts';
import { placeDocuments } from './build/stages/place-documents.ts';
import { fillCountriesAndCities } from './build/stages/point-cities.ts';
import { postcodeDocuments } from './build/stages/postcode-documents.ts';
import { splitStreets } from './build/stages/split-streets.ts';
import { streetDocuments } from './build/stages/street-documents.ts';
import { groupStreets } from './build/stages/street-groups.ts';
import { finishTokens } from './build/stages/tokens.ts';
import { StringKeys } from './build/string-keys.ts';
import type { SourceSink } from './source-sink.ts';
import type { SourceBatch } from './source-types.ts';

export { FUZZY_MIN_LEN } from './build/token-table.ts';
export { Grow } from './build/growable.ts';
export type { BuildProgress } from './build/progress.ts';
export type { SourceSummary } from './build/stages/intake.ts';

export interface BuildOptions {
  /** Spill the address columns here while building (large builds). */
  tmpDir?: string;
  progress?: BuildProgress;
}

export interface BuildResult {
  meta: IndexMeta;
  bytes: number;
  /** Duplicate address points merged into another source's point. */
  merged: number;
  /** Peak bytes in the temporary directory (0 without one). */
  peakTempBytes: number;
}

export class IndexBuilder {
  private readonly S = new StringInterner();
  private readonly keys = new StringKeys(this.S);
  private readonly intake = new Intake(this.S, this.keys);

  private readonly opts: BuildOptions;
  constructor(opts: BuildOptions = {}) {
    this.opts = opts;
  }

  get addressCount(): number {
    return this.intake.points?.count ?? 0;
  }

  /** Rows taken so far, all kinds (for progress). */
  get rowCount(): number {
    return this.intake.rowCount;
  }

  get summary(): SourceSummary[] {
    return this.intake.sources;
  }

  /** Starts a source (sources come in command-line order: the first wins duplicates). */
  source(label: string): SourceSink {
    return this.intake.source(label);
  }

  /** Adds a whole batch as one source (small inputs, tests). */
  add(batch: SourceBatch, label: string): void {
    const sink = this.source(label);
    for (const a of batch.admins) sink.admin(a);
    for (const p of batch.places) sink.place(p);
    for (const p of batch.postcodes) sink.postcode(p);
    for (const l of batch.lines) sink.line(l);
    for (const a of batch.addresses) sink.address(a);
  }

  /** Builds the index into memory (small indexes). */
  build(): Uint8Array {
    const { sections, meta } = this.run(undefined);
    return indexBytes(sections, meta);
  }

  /** Builds the index and streams it to `path`. */
  writeTo(path: string): BuildResult {
    const tmp = this.opts.tmpDir ? new TempDir(this.opts.tmpDir) : undefined;
    try {
      const { sections, meta, merged } = this.run(tmp);
      this.progress.phase('write');
      const bytes = writeIndexFile(path, sections, meta);
      return { meta, bytes, merged, peakTempBytes: tmp?.peak ?? 0 };
    } finally {
      tmp?.remove();
    }
  }

  private get progress(): BuildProgress {
    return this.opts.progress ?? noProgress;
  }

  /** Stages 2–13 (see the header). */
  private run(tmp: TempDir | undefined): { sections: Record<ColumnName, Section>; meta: IndexMeta; merged: number } {
    const { intake, S, keys } = this;
    const P = intake.points;
    if (!P) throw new Error('the builder has already built');
    const pr = this.progress;
    const lines = intake.lines;

    pr.phase('places and postcodes');
    const placeGrid = placeCountries(intake.places); // 2
    const admin = new AdminIndex(intake.admins, intake.postcodes);
    fillCountriesAndCities(P, S, placeGrid, admin, pr); // 3
    const { dead, merged } = dropDuplicates(P, S, keys, intake.addressSources, pr); // 4
    const groups = groupStreets(P, dead, keys, pr); // 5
    lines.finish();
    const parts = splitStreets(P, lines, groups, keys, pr); // 6
    const hnRank = houseNumberRanks(P, dead, S, keys); // 7

    const docs = new Documents(S, keys, admin);
    const A = addressColumns(tmp, lines.count > 0);
    const nAddrNav = streetDocuments(docs, P, lines, parts, groups.order, hnRank, A, pr); // 8
    const nAddr = A.addrLat.length;
    if (lines.count > 0) lineStreets(docs, lines, placeGrid, groups.grouper, groups.count, parts, nAddr, pr); // 9
    groups.grouper.dropTable();
    intake.points = undefined; // the points' columns are no longer needed

    placeDocuments(docs, intake.places, intake.postcodes, nAddr, pr); // 10
    postcodeDocuments(docs, intake.postcodes, nAddr, pr); // 11
    const tk = finishTokens(docs, pr); // 12
    // no navigation point at all (no street geometry): the two columns are written empty
    const sections = indexSections(docs, tk, A, nAddrNav === 0); // 13
    const meta = indexMeta(intake.sources.map((s) => s.label), docs.D, tk, nAddr, merged);
    return { sections, meta, merged };
  }
}
