/**
 * Index build orchestration: reads every given source with its reader and always adds the default
 * layer (places and postcodes of the 34 destinations). Used by `addrflow index build`, the evaluation and the benchmark.
 */
import { IndexBuilder } from './index-builder.ts';
import { readBano } from './readers/bano.ts';
import { readDefaultLayerBatch } from './index-file.ts';
import { readGeonamesPostcodes } from './readers/geonames-postcodes.ts';
import { readOpenAddresses } from './readers/openaddresses.ts';
import { readOsmPbf } from './readers/osm-pbf.ts';

export interface IndexSources {
  osm?: string[];
  bano?: string[];
  openaddresses?: string[];
  geonamesPostcodes?: string[];
}

export interface BuildStats {
  addressPoints: number;
  readMs: number;
  buildMs: number;
  bytes: number;
}

export async function buildIndex(src: IndexSources): Promise<{ bytes: Uint8Array; stats: BuildStats }> {
  const t0 = performance.now();
  const b = new IndexBuilder();
  b.add(await readDefaultLayerBatch(), 'default-layer:assets/default-layer');
  for (const f of src.geonamesPostcodes ?? []) b.add(await readGeonamesPostcodes(f), `geonames-postcodes:${f}`);
  for (const f of src.osm ?? []) b.add(await readOsmPbf(f), `osm:${f}`);
  for (const f of src.bano ?? []) b.add(await readBano(f), `bano:${f}`);
  for (const f of src.openaddresses ?? []) b.add(await readOpenAddresses(f), `openaddresses:${f}`);
  const t1 = performance.now();
  const bytes = b.build();
  const t2 = performance.now();
  return { bytes, stats: { addressPoints: b.addressCount, readMs: t1 - t0, buildMs: t2 - t1, bytes: bytes.length } };
}
