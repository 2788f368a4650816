/**
 * Index files on disk: write an index directory, read it into ONE SharedArrayBuffer (which the
 * pool hands to every worker thread), and the embedded default index (the default layer),
 * built once into the cache directory.
 */
import { mkdir, open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../config/shared-data.ts';
import { INDEX_FILE_NAME, INDEX_FORMAT_VERSION } from '../engine/index/format.ts';
import { openIndex } from '../engine/index/index.ts';
import { IndexBuilder } from './index-builder.ts';
import { readDefaultLayer } from './readers/default-layer.ts';
import { emptyBatch, type SourceBatch } from './source-types.ts';

export async function writeIndexDir(dir: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `${INDEX_FILE_NAME}.tmp-${process.pid}`);
  await writeFile(tmp, bytes);
  await rename(tmp, join(dir, INDEX_FILE_NAME));
  const meta = openIndex(bytes.buffer).meta;
  await writeFile(join(dir, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
}

/** Reads DIR/index.bin straight into a SharedArrayBuffer (one copy, no intermediate Buffer). */
export async function loadIndexFile(dir: string): Promise<SharedArrayBuffer> {
  const path = join(dir, INDEX_FILE_NAME);
  const { size } = await stat(path);
  const sab = new SharedArrayBuffer(size);
  const view = new Uint8Array(sab);
  const fh = await open(path, 'r');
  try {
    let off = 0;
    while (off < size) {
      const { bytesRead } = await fh.read(view, off, Math.min(size - off, 1 << 26), off);
      if (bytesRead === 0) throw new Error(`short read of ${path}`);
      off += bytesRead;
    }
  } finally {
    await fh.close();
  }
  openIndex(sab); // validates magic and version
  return sab;
}

/** Bumped when the default layer or the way it is built changes (a new cache directory). */
const DEFAULT_LAYER_VERSION = 'layer1';

export function defaultIndexDir(): string {
  return process.env.ADDRFLOW_CACHE_DIR
    ? resolve(process.env.ADDRFLOW_CACHE_DIR, `default-index-v${INDEX_FORMAT_VERSION}-${DEFAULT_LAYER_VERSION}`)
    : resolve(PROJECT_ROOT, '.cache', `default-index-v${INDEX_FORMAT_VERSION}-${DEFAULT_LAYER_VERSION}`);
}

/** The default layer (places and postcodes of the 34 destinations) as one batch for the builder. */
export async function readDefaultLayerBatch(): Promise<SourceBatch> {
  const b = emptyBatch();
  await readDefaultLayer({
    address() {}, line() {}, admin() {}, reject() {},
    place(p) { b.places.push({ ...p, altNames: p.altNames ? [...p.altNames] : [] }); },
    postcode(p) { b.postcodes.push({ ...p }); },
  });
  return b;
}

/** Builds the default-layer-only index. */
export async function buildDefaultIndex(): Promise<Uint8Array> {
  const b = new IndexBuilder();
  b.add(await readDefaultLayerBatch(), 'default-layer:assets/default-layer');
  return b.build();
}

/**
 * The embedded default index: the default layer (GeoNames places and postcodes of the 34
 * destinations, assets/default-layer). Built on first
 * use into .cache/default-index-v<format>/ and read from there afterwards.
 */
export async function loadDefaultIndex(): Promise<SharedArrayBuffer> {
  const dir = defaultIndexDir();
  try {
    return await loadIndexFile(dir);
  } catch {
    const bytes = await buildDefaultIndex();
    try {
      await writeIndexDir(dir, bytes);
    } catch {
      // read-only checkout: serve from memory
    }
    const sab = new SharedArrayBuffer(bytes.length);
    new Uint8Array(sab).set(bytes);
    return sab;
  }
}

export async function readIndexMeta(dir: string): Promise<unknown> {
  return JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8'));
}
