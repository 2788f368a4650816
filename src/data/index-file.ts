/**
 * Index files on disk: write an index directory, read it into ONE SharedArrayBuffer (which the
 * pool hands to every worker thread), and the embedded default index (the default layer),
 * built once into the cache directory.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../config/shared-data.ts';
import { StartError } from '../contract/errors.ts';
import { COLUMNS, INDEX_FILE_NAME, INDEX_FORMAT_VERSION, INDEX_MAGIC } from '../engine/index/format.ts';
import { openIndex } from '../engine/index/index.ts';
import { IndexBuilder } from './index-builder.ts';
import { addDefaultLayer } from './build-index.ts';
import { defaultLayerPath } from './readers/default-layer.ts';

export async function writeIndexDir(dir: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `${INDEX_FILE_NAME}.tmp-${process.pid}`);
  await writeFile(tmp, bytes);
  await rename(tmp, join(dir, INDEX_FILE_NAME));
  const meta = openIndex(bytes.buffer).meta;
  await writeFile(join(dir, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
}

/**
 * Reads DIR/index.bin straight into ONE SharedArrayBuffer (no intermediate Buffer), which every
 * worker thread then views. The header is checked first (magic, version, and that the file is as
 * long as its table of contents says), so a truncated or foreign file fails before the big read.
 * One SharedArrayBuffer holds indexes over 2 GiB (and over 4 GiB) on 64-bit Node 24.
 * An unusable file is a StartError naming the path and what is wrong (docs/errors.md):
 * missing/unreadable, truncated, another format version, not an index.
 */
const LOAD_BLOCK = 1 << 25;

export async function loadIndexFile(dir: string): Promise<SharedArrayBuffer> {
  const path = join(dir, INDEX_FILE_NAME);
  const what = `--index ${dir}: ${path}`;
  const unreadable = (err: unknown) =>
    new StartError('INDEX_MISSING', `${what} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); build one with 'addrflow index build'`);
  let size: number;
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    size = (await stat(path)).size;
    fh = await open(path, 'r');
  } catch (err) {
    throw unreadable(err);
  }
  try {
    const head = new Uint8Array(Math.min(size, 1 << 20));
    await fh.read(head, 0, head.length, 0);
    checkIndexHeader(head, size, what);
    const sab = new SharedArrayBuffer(size);
    const view = new Uint8Array(sab);
    // two reads in flight (32 MiB blocks): measured 1.9 s instead of 3.5 s for a cold 1.2 GiB file
    let next = 0;
    const reader = async () => {
      for (;;) {
        const start = next;
        if (start >= size) return;
        next += LOAD_BLOCK;
        const end = Math.min(size, start + LOAD_BLOCK);
        for (let off = start; off < end;) {
          const { bytesRead } = await fh.read(view, off, end - off, off);
          if (bytesRead === 0) throw new StartError('INDEX_TRUNCATED', `${what} is truncated: short read at byte ${off} of ${size}`);
          off += bytesRead;
        }
      }
    };
    await Promise.all([reader(), reader()]);
    try {
      openIndex(sab); // every section's element size, alignment and bounds
    } catch (err) {
      throw new StartError('INDEX_CORRUPT', `${what} is damaged: ${(err as Error).message}`);
    }
    return sab;
  } catch (err) {
    throw err instanceof StartError ? err : unreadable(err);
  } finally {
    await fh.close();
  }
}

/**
 * The header and table of contents of an index file (its first bytes, `head`), checked against
 * the file's size before the whole file is read (see engine/index/format.ts).
 */
export function checkIndexHeader(head: Uint8Array, size: number, what: string): void {
  const magic = new TextEncoder().encode(INDEX_MAGIC);
  const magicOk = head.length >= magic.length && magic.every((b, i) => head[i] === b);
  if (!magicOk) throw new StartError('INDEX_CORRUPT', `${what} is not an addrflow address index (it does not start with '${INDEX_MAGIC}')`);
  if (size < 16) throw new StartError('INDEX_TRUNCATED', `${what} is truncated: ${size} bytes, shorter than the 16-byte header`);
  const dv = new DataView(head.buffer, head.byteOffset, head.length);
  const version = dv.getUint32(8, true);
  if (version !== INDEX_FORMAT_VERSION) {
    throw new StartError('INDEX_VERSION', `${what} has index format version ${version}; this build reads version ${INDEX_FORMAT_VERSION}: rebuild it with 'addrflow index build'`);
  }
  const tocLen = dv.getUint32(12, true);
  if (16 + tocLen > size) throw new StartError('INDEX_TRUNCATED', `${what} is truncated: ${size} bytes, its table of contents alone needs ${16 + tocLen}`);
  if (16 + tocLen > head.length) throw new StartError('INDEX_CORRUPT', `${what} is damaged: a table of contents of ${tocLen} bytes`);
  let toc: { sections?: Record<string, [number, number]> };
  try {
    toc = JSON.parse(new TextDecoder().decode(head.subarray(16, 16 + tocLen))) as typeof toc;
  } catch {
    throw new StartError('INDEX_CORRUPT', `${what} is damaged: its table of contents is not readable`);
  }
  for (const [name, type] of Object.entries(COLUMNS)) {
    const sec = toc.sections?.[name];
    if (!Array.isArray(sec) || sec.length !== 2 || !sec.every((n) => Number.isSafeInteger(n) && n >= 0)) {
      throw new StartError('INDEX_CORRUPT', `${what} is damaged: section ${name} has no valid position`);
    }
    const end = sec[0] + sec[1] * (type === 'u8' ? 1 : 4);
    if (end > size) throw new StartError('INDEX_TRUNCATED', `${what} is truncated: ${size} bytes, section ${name} ends at byte ${end}; rebuild it or copy it again`);
  }
}

/** Bumped when the way the builder writes an index changes without a new format (a new cache directory). */
const DEFAULT_BUILD_VERSION = 'b4';

let layerKey = '';
/**
 * The cache directory of the default index is named after the index format and a hash of the
 * default layer file itself, so a regenerated layer is never answered from a stale cache and no
 * version needs bumping by hand (reading and hashing the 4.7 MB file takes a few ms, once).
 */
function defaultLayerKey(): string {
  if (!layerKey) {
    try {
      layerKey = createHash('sha256').update(readFileSync(defaultLayerPath())).digest('hex').slice(0, 12);
    } catch {
      layerKey = 'missing'; // the build then reports the missing file itself
    }
  }
  return layerKey;
}

export function defaultIndexDir(): string {
  const name = `default-index-v${INDEX_FORMAT_VERSION}${DEFAULT_BUILD_VERSION}-layer-${defaultLayerKey()}`;
  return process.env.ADDRFLOW_CACHE_DIR ? resolve(process.env.ADDRFLOW_CACHE_DIR, name) : resolve(PROJECT_ROOT, '.cache', name);
}

/** Builds the city-layer-only index. */
export async function buildDefaultIndex(): Promise<Uint8Array> {
  const b = new IndexBuilder();
  await addDefaultLayer(b);
  return b.build();
}

/**
 * The embedded default index: the default layer (GeoNames places and postcodes of the 34
 * destinations, assets/default-layer). Built on first use into
 * .cache/default-index-v<format><build>-layer-<hash of the layer file>/ and read from there afterwards;
 * `onBuild` is told before a build (several seconds), so that a caller can say why it waits.
 */
export async function loadDefaultIndex(onBuild?: (dir: string) => void): Promise<SharedArrayBuffer> {
  const dir = defaultIndexDir();
  try {
    return await loadIndexFile(dir);
  } catch {
    onBuild?.(dir);
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
