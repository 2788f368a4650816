/**
 * Stage 9 (named place, see ../index.ts): whether the words that named a place are the name of a
 * first-level subdivision (a state, region, Land, canton): the index's own (local) state names and
 * the language-tagged ones of the pinned subdivision table (CLDR, address-formatting: `Bavaria`,
 * `Tuscany`). A query that names a state may mean the state: a city found by those words under
 * another of its names is a guess (the capital known by the region's name).
 */
import type { AddressIndex } from '../../index/index.ts';
import { foldText } from '../normalize/normalize.ts';
import { stateTable } from './state-table.ts';

/**
 * The words `text` (folded, in query order) are a state's name, and they named a place by
 * another of its names than its own (an untagged alternate name, its first words, a misspelling):
 * the query may mean the state (`Île-de-France` is also one of Paris' GeoNames names). A place
 * named by its own name is no guess (`Salzburg`, `Bern`, `Tabor`: first-level subdivisions are
 * towns in SI and MT, so a name shared with one abroad says nothing), nor one named by its
 * language-tagged name (`Lisbon`: CLDR's English name of the city and of its district), nor a
 * city whose own state bears its name (`Geneva`, `Limassol`).
 */
export function stateNamedInstead(index: AddressIndex, text: string, doc: number, ownName: boolean, tagged: () => boolean): boolean {
  if (ownName || !stateTable(index).byName.has(text)) return false;
  // a state named after its city (the canton of Genève, the district of Lemesos): the words are
  // the city's other name as much as the state's (`Geneva`)
  const c = index.c;
  if (foldText(index.str(c.docCity[doc]!)) === foldText(index.str(c.admStateName[c.docAdmin[doc]!]!))) return false;
  return !tagged();
}
