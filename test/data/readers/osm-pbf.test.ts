/**
 * The OSM PBF reader (src/data/readers/osm-pbf): a synthetic file written with the project's own
 * encoder (every row kind and every reject reason, dense and plain nodes, a non-default
 * granularity), real extracts (exact counts, bit-identical to the previous reader's rows, see
 * docs/performance.md), bad files (coded errors), and the scale check: a PBF of more than 2^24
 * nodes (the real Liechtenstein extract tiled 53 times) read in a child process whose JS heap is
 * capped at 160 MB — which a per-node JS object, or V8's 2^24-entry Map limit, would not survive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOsmPbfReader, OsmPbfError, readOsmPbf } from '../../../src/data/readers/osm-pbf/index.ts';
import { collectSource } from '../../../src/data/readers/collect.ts';
import { countingSink, type SourceCounts } from '../../../src/data/source-sink.ts';
import { headerFrame, writeOsmPbf, type NodeSpec, type RelationSpec, type WaySpec } from '../../../scripts/osm-pbf-writer.ts';
import { loadTileSource, writeTiledPbf } from '../../../scripts/osm-tiler.ts';
import { describeWithSharedData, sharedDataPath } from '../../helpers/shared-data.ts';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'addrflow-osm-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function countsOf(file: string): Promise<SourceCounts> {
  const noop = (): void => {};
  const { sink, counts } = countingSink({ address: noop, line: noop, place: noop, postcode: noop, admin: noop, reject: noop });
  await readOsmPbf(file, sink);
  return counts;
}

// ---- a small synthetic file: one of every case
const nodes: NodeSpec[] = [
  { id: 1, lat: 47.1, lon: 9.5, tags: { 'addr:street': 'Teststrasse', 'addr:housenumber': '1', 'addr:city': 'Vaduz (FL)', 'addr:postcode': '9490' } },
  { id: 2, lat: 47.1, lon: 9.5008, tags: { 'addr:street': 'Teststrasse', 'addr:housenumber': '9', 'addr:country': 'li' } },
  { id: 3, lat: 47.1, lon: 9.5004 },
  { id: 4, lat: 47.1001, lon: 9.5004 },
  { id: 5, lat: 47.2, lon: 9.6, tags: { 'addr:housenumber': '4' } },
  { id: 6, lat: 47.3, lon: 9.7, tags: { place: 'village', name: 'Testdorf', 'name:de': 'Testdorf', 'name:fr': 'Village-Test', population: '120' } },
  { id: 7, lat: 47.3, lon: 9.7, tags: { place: 'country', name: 'Not a place kind' } },
  // a closed building
  { id: 10, lat: 47.0, lon: 9.0 }, { id: 11, lat: 47.0, lon: 9.002 }, { id: 12, lat: 47.002, lon: 9.002 }, { id: 13, lat: 47.002, lon: 9.0 },
  // a square boundary in two halves, and an open one
  { id: 20, lat: 46.0, lon: 8.0 }, { id: 21, lat: 46.0, lon: 8.1 }, { id: 22, lat: 46.1, lon: 8.1 }, { id: 23, lat: 46.1, lon: 8.0 },
  { id: 24, lat: 46.2, lon: 8.2 },
];
const ways: WaySpec[] = [
  { id: 100, refs: [1, 3, 2], tags: { 'addr:interpolation': 'odd' } },
  { id: 101, refs: [1, 3, 2], tags: { highway: 'residential', name: 'Teststrasse', 'name:it': 'Via Test' } },
  { id: 102, refs: [998, 999], tags: { highway: 'service', name: 'Verloren' } },
  { id: 103, refs: [10, 11, 12, 13, 10], tags: { building: 'yes', 'addr:street': 'Teststrasse', 'addr:housenumber': '20' } },
  { id: 104, refs: [3, 4], tags: { 'addr:interpolation': 'even' } },
  { id: 105, refs: [20, 21, 22] },
  { id: 106, refs: [22, 23, 20] },
  { id: 107, refs: [21, 24] },
  { id: 108, refs: [10, 11, 12, 13, 10] },
];
const relations: RelationSpec[] = [
  { id: 200, tags: { type: 'boundary', boundary: 'administrative', admin_level: '8', name: 'Testgemeinde', 'ISO3166-2': 'LI-99' },
    members: [{ type: 'way', ref: 105, role: 'outer' }, { type: 'node', ref: 6, role: 'admin_centre' }, { type: 'way', ref: 106, role: 'outer' }] },
  { id: 201, tags: { boundary: 'administrative', admin_level: '8', name: 'Offen' }, members: [{ type: 'way', ref: 107, role: 'outer' }] },
  { id: 202, tags: { boundary: 'administrative', admin_level: '8', name: 'Geist' }, members: [{ type: 'way', ref: 9999, role: 'outer' }] },
  { id: 203, tags: { type: 'multipolygon', building: 'yes', 'addr:street': 'Teststrasse', 'addr:housenumber': '30' }, members: [{ type: 'way', ref: 108, role: 'outer' }] },
  { id: 204, tags: { type: 'route', route: 'bus', name: 'Linie 1' }, members: [{ type: 'way', ref: 101, role: '' }] },
];

describe('OSM PBF reader on a synthetic file (every row kind and reject reason)', () => {
  for (const variant of [
    { name: 'dense nodes, default granularity', opts: {} },
    { name: 'plain nodes, granularity 1000 with offsets', opts: { dense: false, granularity: 1000, latOffset: 3_000_000_000, lonOffset: -2_000_000_000 } },
    { name: 'a file not declared sorted (every blob looked at in pass 1)', opts: { sortedHeader: false } },
    { name: 'node ids spilled to disk (no memory budget)', opts: {}, reader: { idMemoryBytes: 0 } },
    { name: 'an unsorted file not declared sorted', opts: { sortedHeader: false, blockOrder: ['relations', 'ways', 'nodes'] as ('nodes' | 'ways' | 'relations')[] } },
  ]) {
    it(variant.name, async () => {
      const file = join(dir, `synthetic-${variant.name.replace(/\W+/g, '-')}.osm.pbf`);
      await writeOsmPbf(file, { nodes, ways, relations }, variant.opts);
      const rejects: Record<string, number> = {};
      const reader = createOsmPbfReader({ threads: 2, ...('reader' in variant ? variant.reader : {}) });
      const b = (await collectSource(reader, file)).batch;
      if ('reader' in variant) expect(reader.lastStats!.spilledRuns).toBe(1);
      const { sink, counts } = countingSink({ address: () => {}, line: () => {}, place: () => {}, postcode: () => {}, admin: () => {}, reject: (r) => { rejects[r] = (rejects[r] ?? 0) + 1; } });
      await readOsmPbf(file, sink);

      // nodes, then ways in file order (interpolation way 100 before building 103), then relations
      const inOrder = ['1', '9', '3', '5', '7', '20', '30'];
      const got = b.addresses.map((a) => a.housenumber);
      if (variant.opts.blockOrder) expect([...got].sort()).toEqual([...inOrder].sort());
      else expect(got).toEqual(inOrder);
      expect(b.addresses.every((a) => a.street === 'Teststrasse')).toBe(true);
      const hn = (n: string) => b.addresses.find((a) => a.housenumber === n);
      const [n1, n9, i3, i7, w20, r30] = [hn('1'), hn('9'), hn('3'), hn('7'), hn('20'), hn('30')];
      expect(n1).toMatchObject({ city: 'Vaduz', postcode: '9490', country: '' });
      expect(n1!.lat).toBeCloseTo(47.1, 7);
      expect(n9!.country).toBe('LI');
      expect(w20!.lat).toBeCloseTo(47.001, 6);
      expect(w20!.lon).toBeCloseTo(9.001, 6);
      expect(r30!.lat).toBeCloseTo(47.001, 6);
      // interpolated numbers copy the first end's fields and lie along the way
      expect(i3).toMatchObject({ postcode: '9490', city: 'Vaduz' });
      expect(i3!.lon).toBeCloseTo(9.5002, 6); // 3 is a quarter of the way from 1 to 9
      expect(i7!.lon).toBeCloseTo(9.5006, 6);

      expect(b.lines).toHaveLength(1);
      expect(b.lines[0]!.name).toBe('Teststrasse');
      expect(b.lines[0]!.names).toEqual({ it: 'Via Test' });
      expect(Array.from(b.lines[0]!.coords).map((x) => +x.toFixed(7))).toEqual([9.5, 47.1, 9.5004, 47.1, 9.5008, 47.1]);

      expect(b.places).toEqual([{ country: '', name: 'Testdorf', lat: expect.closeTo(47.3, 7), lon: expect.closeTo(9.7, 7), population: 120, type: 'village', names: { de: 'Testdorf', fr: 'Village-Test' } }]);

      expect(b.admins).toHaveLength(1);
      const admin = b.admins[0]!;
      expect(admin).toMatchObject({ name: 'Testgemeinde', level: 8, iso: 'LI-99', country: 'LI' });
      expect(admin.rings).toHaveLength(1);
      expect(admin.rings[0]!.length).toBe(10); // 4 corners + closing point
      expect(admin.bbox.map((x) => +x.toFixed(7))).toEqual([8, 46, 8.1, 46.1]);

      expect(rejects).toEqual({
        'address-without-street': 1, 'way-missing-nodes': 1, 'interpolation-unusable': 1,
        'relation-unclosed-ring': 1, 'relation-missing-members': 1,
      });
      expect(counts).toMatchObject({ addresses: 7, lines: 1, places: 1, admins: 1, postcodes: 0 });
    });
  }

  it('reports progress in bytes up to the total, monotonically', async () => {
    const file = join(dir, 'progress.osm.pbf');
    await writeOsmPbf(file, { nodes, ways, relations });
    const seen: [number, number][] = [];
    await readOsmPbf(file, { address() {}, line() {}, place() {}, postcode() {}, admin() {}, reject() {} }, (d, t) => seen.push([d, t]));
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0]).toBeGreaterThanOrEqual(seen[i - 1]![0]);
    const [done, total] = seen[seen.length - 1]!;
    expect(done).toBe(total);
    expect(total).toBeGreaterThan(statSync(file).size); // some blobs are read in more than one pass
  });
});

describe('OSM PBF reader on bad files (coded errors, no crash)', () => {
  const expectCode = async (file: string, code: string, text: RegExp): Promise<void> => {
    const err = await readOsmPbf(file, { address() {}, line() {}, place() {}, postcode() {}, admin() {}, reject() {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OsmPbfError);
    expect((err as OsmPbfError).code).toBe(code);
    expect((err as Error).message).toMatch(text);
  };

  it('a file that is not a PBF', async () => {
    const file = join(dir, 'not.osm.pbf');
    writeFileSync(file, '<?xml version="1.0"?><osm version="0.6"></osm>\n');
    await expectCode(file, 'ADDR_ERR_OSM_PBF_BAD_FRAME', /not\.osm\.pbf: not an OSM PBF/);
  });

  it('a history file (a required feature the reader does not implement)', async () => {
    const file = join(dir, 'history.osh.pbf');
    writeFileSync(file, headerFrame(6, [], ['OsmSchema-V0.6', 'DenseNodes', 'HistoricalInformation']));
    await expectCode(file, 'ADDR_ERR_OSM_PBF_UNSUPPORTED', /requires HistoricalInformation/);
  });

  it('a file that says it is sorted by type and id and is not', async () => {
    const file = join(dir, 'unsorted.osm.pbf');
    await writeOsmPbf(file, { nodes, ways, relations }, { blockOrder: ['ways', 'nodes', 'relations'] });
    await expectCode(file, 'ADDR_ERR_OSM_PBF_BAD_FRAME', /sorted by type then id, but the block at byte \d+ is out of order/);
  });

  it('an empty file', async () => {
    const file = join(dir, 'empty.osm.pbf');
    writeFileSync(file, '');
    await expectCode(file, 'ADDR_ERR_OSM_PBF_BAD_FRAME', /empty file/);
  });

  it('a file cut short inside a block', async () => {
    const whole = join(dir, 'whole.osm.pbf');
    await writeOsmPbf(whole, { nodes, ways, relations });
    const cut = join(dir, 'cut.osm.pbf');
    const bytes = readFileSync(whole);
    writeFileSync(cut, bytes.subarray(0, bytes.length - 10));
    await expectCode(cut, 'ADDR_ERR_OSM_PBF_TRUNCATED', /cut\.osm\.pbf: file ends/);
  });

  it('a damaged (undecompressable) block', async () => {
    const whole = join(dir, 'whole2.osm.pbf');
    await writeOsmPbf(whole, { nodes, ways, relations });
    const bytes = Buffer.from(readFileSync(whole));
    // flip bytes in the middle of the last block's zlib data
    for (let i = bytes.length - 20; i < bytes.length - 12; i++) bytes[i] = bytes[i]! ^ 0xff;
    const bad = join(dir, 'damaged.osm.pbf');
    writeFileSync(bad, bytes);
    await expectCode(bad, 'ADDR_ERR_OSM_PBF_BAD_BLOB', /damaged\.osm\.pbf: block at byte \d+: damaged block: /);
  });
});

const LI = ['osm-liechtenstein-2024', 'liechtenstein-2024-03-04.osm.pbf'];
/** The extract's counts; the rows are bit-identical to those of the former Map-based reader. */
const LI_COUNTS = {
  addresses: 12507, lines: 2925, places: 79, postcodes: 0, admins: 15,
  rejected: { 'address-without-street': 6, 'relation-unclosed-ring': 27 },
};

describeWithSharedData('OSM PBF reader on real extracts', LI, () => {
  it('Liechtenstein: exact counts, real rows', async () => {
    const file = sharedDataPath(...LI);
    expect(await countsOf(file)).toEqual(LI_COUNTS);
    const b = (await collectSource(readOsmPbf, file)).batch;
    expect(b.admins.map((a) => `${a.level} ${a.name}`)).toContain('2 Liechtenstein');
    expect(b.admins.find((a) => a.name === 'Vaduz')).toMatchObject({ iso: 'LI-11', country: 'LI', level: 8 });
    expect(b.addresses).toContainEqual({ country: 'LI', street: 'Städtle', housenumber: '23', postcode: '9490', city: 'Vaduz', district: '', lat: 47.140013800000006, lon: 9.5228187 });
    expect(b.places.find((p) => p.name === 'Vaduz')).toMatchObject({ type: 'town', population: 5229 });
  });

  it('Malta: addresses without a street and unusable interpolations are counted, not dropped silently', async () => {
    const counts = await countsOf(sharedDataPath('osm-malta-2018', 'malta-2018-08-27.osm.pbf'));
    expect(counts).toEqual({
      addresses: 925, lines: 12286, places: 166, postcodes: 0, admins: 73,
      rejected: { 'address-without-street': 576, 'interpolation-unusable': 8 },
    });
  });
});

const TOOL = fileURLToPath(new URL('../../../tools/osm-read-counts.ts', import.meta.url));

describeWithSharedData('OSM PBF reader at scale: more than 2^24 nodes, JS heap capped at 160 MB', LI, () => {
  it('reads the Liechtenstein extract tiled 53× (16.9M nodes) with exactly 53× its counts', async () => {
    const src = await loadTileSource(sharedDataPath(...LI));
    const tiles = Math.floor(2 ** 24 / src.nodeCount) + 1;
    expect(tiles * src.nodeCount).toBeGreaterThan(2 ** 24);
    const file = join(dir, 'tiled.osm.pbf');
    await writeTiledPbf(src, file, { tiles, level: 1 });
    // 16 MB for sorted id chunks: the 6.2M needed ids (50 MB) must spill to disk as runs
    const r = spawnSync(process.execPath, ['--max-old-space-size=160', TOOL, file], { encoding: 'utf8', env: { ...process.env, ADDRFLOW_OSM_THREADS: '2', ADDRFLOW_OSM_ID_MEMORY_MB: '16' } });
    rmSync(file, { force: true });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as SourceCounts & { heapPeakMiB: number; maxRssMiB: number; stats: { neededNodes: number; spilledRuns: number } };
    expect(out.stats.spilledRuns).toBeGreaterThan(0);
    const times = (n: number): number => n * tiles;
    expect(out).toMatchObject({
      addresses: times(LI_COUNTS.addresses), lines: times(LI_COUNTS.lines), places: times(LI_COUNTS.places), admins: times(LI_COUNTS.admins),
      rejected: { 'address-without-street': times(6), 'relation-unclosed-ring': times(27) },
    });
    expect(out.heapPeakMiB).toBeLessThan(160);
    console.log(`osm scale check: ${tiles} tiles, ${tiles * src.nodeCount} nodes, ${out.stats.neededNodes} kept, ${out.stats.spilledRuns} id runs spilled, peak RSS ${out.maxRssMiB} MiB, main heap peak ${out.heapPeakMiB} MiB`);
  }, 300_000);
});
