/** The build stage sections and meta: every column of the index by name, and the header's counts and attribution. */
import { describe, expect, it } from 'vitest';
import { addressColumns } from '../../../../src/data/build/address-columns.ts';
import { AdminIndex } from '../../../../src/data/build/admin-index.ts';
import { StringInterner } from '../../../../src/data/build/interner.ts';
import { Documents } from '../../../../src/data/build/stages/documents.ts';
import { indexMeta } from '../../../../src/data/build/stages/index-meta.ts';
import type { Section } from '../../../../src/data/build/index-writer.ts';
import { indexSections } from '../../../../src/data/build/stages/index-sections.ts';
import { finishTokens } from '../../../../src/data/build/stages/tokens.ts';
import { StringKeys } from '../../../../src/data/build/string-keys.ts';
import { COLUMNS, DOC_PLACE, DOC_POSTCODE, DOC_STREET, INDEX_FORMAT_VERSION, ROLE_CITY } from '../../../../src/engine/index/format.ts';
import { recorder } from './rows.ts';

/** An in-memory section's array (these tests have no temporary directory). */
const arr = (s: Section) => {
  if (!('array' in s)) throw new Error('a spilled section');
  return [...s.array];
};

function oneOfEach() {
  const S = new StringInterner();
  const docs = new Documents(S, new StringKeys(S), new AdminIndex([], []));
  const { D, T } = docs;
  for (const kind of [DOC_STREET, DOC_PLACE, DOC_POSTCODE]) {
    const d = D.begin(kind, S.intern('LI'), S.intern(`doc ${kind}`), 0, 0);
    D.tokStart.a[d] = T.beginDoc(d);
    T.add(S.intern(`word${kind}`), ROLE_CITY);
    D.tokCount.a[d] = T.docTok.n - D.tokStart.a[d]!;
  }
  const hn = S.intern('12');
  const hnTok = T.tokenOf(hn);
  const A = addressColumns(undefined, false);
  A.addrHnTok.push(hnTok); A.addrHn.push(hn); A.addrLat.push(471410000); A.addrLon.push(95210000);
  A.addrNavLat.push(0); A.addrNavLon.push(0); A.addrPostcode.push(0); A.addrAdmin.push(0);
  for (const c of Object.values(A)) c.finish();
  return { S, docs, A, hnTok, tk: finishTokens(docs, recorder()) };
}

describe('index sections and meta', () => {
  it('names every column of the format, remaps the house-number tokens and writes no navigation columns without lines', () => {
    const { S, docs, A, tk, hnTok } = oneOfEach();
    const sections = indexSections(docs, tk, A, true);
    expect(Object.keys(sections).sort()).toEqual(Object.keys(COLUMNS).sort());
    expect(arr(sections.addrHnTok)).toEqual([tk.newId[hnTok]]);
    expect(arr(sections.addrNavLat)).toEqual([]);
    expect(arr(sections.addrLat)).toEqual([471410000]);
    // the admin table's one empty entry is interned; the string table is closed
    expect(arr(sections.admState)).toEqual([0]);
    expect(arr(sections.strOff)).toHaveLength(S.count + 1);
  });

  it('counts documents by kind and credits each kind of source', () => {
    const { docs, tk } = oneOfEach();
    const meta = indexMeta(['default-layer:assets', 'osm:li.osm.pbf', 'bano:b.csv'], docs.D, tk, 1, 4);
    expect(meta.formatVersion).toBe(INDEX_FORMAT_VERSION);
    expect(Number.isNaN(Date.parse(meta.builtAt))).toBe(false);
    expect(meta.counts).toEqual({ documents: 3, streets: 1, places: 1, postcodes: 1, addresses: 1, tokens: tk.tokHash.length, deleteKeys: tk.delHash.length, duplicatesMerged: 4 });
    expect(meta.attribution).toHaveLength(3);
    expect(meta.attribution.join('\n')).toMatch(/GeoNames[\s\S]*OpenStreetMap[\s\S]*BANO/);
  });
});
