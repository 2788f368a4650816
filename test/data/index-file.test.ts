/**
 * The index file: written by the streaming writer, read into one SharedArrayBuffer; a truncated
 * file or another format version fails at open with a clear error; indexes over 2 GiB load and
 * answer (one SharedArrayBuffer holds them on 64-bit Node 24).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexBuilder } from '../../src/data/index-builder.ts';
import { layout, type Section } from '../../src/data/build/index-writer.ts';
import { loadIndexFile } from '../../src/data/index-file.ts';
import { COLUMNS, type ColumnName } from '../../src/engine/index/format.ts';
import { openIndex } from '../../src/engine/index/index.ts';
import { lookup } from '../../src/engine/lookup/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-indexfile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tinyBuilder(): IndexBuilder {
  const b = new IndexBuilder({ tmpDir: dir });
  const s = b.source('t');
  s.place({ country: 'LI', name: 'Vaduz', lat: 47.141, lon: 9.521, population: 5000, type: 'town' });
  s.address({ country: 'LI', street: 'Städtle', housenumber: '1', postcode: '9490', city: 'Vaduz', district: '', lat: 47.141, lon: 9.521 });
  return b;
}

describe('index file', () => {
  it('streams the same bytes as the in-memory layout, via spilled columns', async () => {
    const d = join(dir, 'a');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(d);
    tinyBuilder().writeTo(join(d, 'index.bin'));
    const fromFile = openIndex(await loadIndexFile(d));
    const mem = openIndex(tinyBuilder().build().buffer);
    for (const name of Object.keys(COLUMNS) as ColumnName[]) expect([...fromFile.c[name]], name).toEqual([...mem.c[name]]);
    // no street geometry: the address navigation columns are written empty and read as "no point"
    expect(fromFile.c.addrNavLat.length).toBe(0);
    expect(lookup(fromFile, { street: 'Städtle', housenumber: '1', city: 'Vaduz' })).toMatchObject({ matchlevel: 'housenumber', navigation_latitude: '', latitude: '47.141' });
  });
  it('refuses a truncated file at open, naming the section and the sizes', async () => {
    const d = join(dir, 't');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(d);
    tinyBuilder().writeTo(join(d, 'index.bin'));
    const size = statSync(join(d, 'index.bin')).size;
    truncateSync(join(d, 'index.bin'), size - 9);
    await expect(loadIndexFile(d)).rejects.toThrow(/is truncated: \d+ bytes, section \w+ ends at byte \d+/);
    await expect(loadIndexFile(d)).rejects.toMatchObject({ code: 'ADDR_ERR_INDEX_TRUNCATED' });
    truncateSync(join(d, 'index.bin'), 40);
    await expect(loadIndexFile(d)).rejects.toThrow(/is truncated: \d+ bytes, its table of contents alone needs \d+/);
  });
  it('refuses another format version at open', async () => {
    const bytes = tinyBuilder().build();
    new DataView(bytes.buffer).setUint32(8, 3, true);
    const d = join(dir, 'v');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(d);
    writeFileSync(join(d, 'index.bin'), bytes);
    await expect(loadIndexFile(d)).rejects.toThrow(/has index format version 3; this build reads version \d+: rebuild it with 'addrflow index build'/);
  });
  it('loads and answers from an index over 2 GiB (sections past 2^31 bytes)', async () => {
    // a real tiny index whose postings section is padded to 2.25 GiB (sparse file: no disk used),
    // so that every later section (documents, addresses, admin) lies beyond 2^31 bytes
    const mem = openIndex(tinyBuilder().build().buffer);
    const BIG = 600_000_000;
    const sections = {} as Record<ColumnName, Section>;
    for (const name of Object.keys(COLUMNS) as ColumnName[]) sections[name] = { array: mem.c[name] };
    sections.postings = { file: '', length: BIG };
    const { header, offsets, total } = layout(sections, mem.meta);
    expect(offsets.addrLat!).toBeGreaterThan(2 ** 31);
    const d = join(dir, 'big');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(d);
    const fd = openSync(join(d, 'index.bin'), 'w');
    writeSync(fd, header, 0, header.length, 0);
    for (const name of Object.keys(COLUMNS) as ColumnName[]) {
      const a = mem.c[name];
      writeSync(fd, new Uint8Array(a.buffer, a.byteOffset, a.byteLength), 0, a.byteLength, offsets[name]!);
    }
    ftruncateSync(fd, total);
    closeSync(fd);
    const sab = await loadIndexFile(d);
    expect(sab.byteLength).toBe(total);
    const idx = openIndex(sab);
    expect(idx.c.postings.length).toBe(BIG);
    const r = lookup(idx, { street: 'Städtle', housenumber: '1', city: 'Vaduz' });
    expect(r).toMatchObject({ matchlevel: 'housenumber', zip: '9490', latitude: '47.141' });
  }, 120_000);
});
