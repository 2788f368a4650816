/**
 * Stage 9 (named place, see ../index.ts): the country code of a document, decoded once per string
 * id and index (a few dozen strings) instead of once per document the place words hit.
 */
import type { AddressIndex } from '../../index/index.ts';

/** Country codes by string id, per index: a few dozen strings, decoded once instead of per document. */
const countryNames = new WeakMap<AddressIndex, CountryNames>();
/** More distinct country strings than this (an index written otherwise) empties the map. */
const MAX_COUNTRY_NAMES = 1024;

export class CountryNames {
  private readonly byId = new Map<number, string>();
  private readonly index: AddressIndex;
  constructor(index: AddressIndex) { this.index = index; }

  /** The country code of document `doc`. */
  of(doc: number): string {
    const id = this.index.c.docCountry[doc]!;
    let s = this.byId.get(id);
    if (s === undefined) {
      if (this.byId.size >= MAX_COUNTRY_NAMES) this.byId.clear();
      this.byId.set(id, (s = this.index.str(id)));
    }
    return s;
  }
}

export function countriesOf(index: AddressIndex): CountryNames {
  let m = countryNames.get(index);
  if (!m) countryNames.set(index, (m = new CountryNames(index)));
  return m;
}
