/**
 * Token strings of a name, computed once per distinct string and kept as lists of interned ids
 * in typed arrays (CSR), not as one JS array per name.
 */
import { ROLE_CITY, ROLE_NAME, NAMES_US } from '../../engine/index/format.ts';
import { canonicalTokens, countryLanguages } from '../../engine/lookup/normalize/abbreviations.ts';
import { foldTokens } from '../../engine/lookup/normalize/normalize.ts';
import { growU32 } from './growable.ts';
import { DerivedIds, type StringInterner } from './interner.ts';
import { unpackCountry } from './point-store.ts';
import type { TokenTable } from './token-table.ts';

export class TokenLists {
  private readonly listOf = new DerivedIds();
  private readonly start = growU32(1 << 12);
  private readonly items = growU32(1 << 14);
  private readonly country = growU32(1 << 12);
  private readonly wordsOf = new DerivedIds();
  private readonly altOf = new DerivedIds();

  private readonly S: StringInterner;
  constructor(S: StringInterner) {
    this.S = S;
    this.start.push(0);
  }

  /** A street name's tokens (abbreviations canonicalised for the country's languages). */
  name(nameId: number, cc: number, T: TokenTable): void {
    const make = () => this.store(canonicalTokens(foldTokens(this.S.str(nameId)), countryLanguages(unpackCountry(cc))), cc);
    const l = this.listOf.of(nameId, make);
    if (this.country.a[l] !== cc && countryLanguages(unpackCountry(cc)).join() !== countryLanguages(unpackCountry(this.country.a[l]!)).join()) {
      for (const t of canonicalTokens(foldTokens(this.S.str(nameId)), countryLanguages(unpackCountry(cc)))) T.add(this.S.intern(t), ROLE_NAME);
      return;
    }
    for (let p = this.start.a[l]!; p < this.start.a[l + 1]!; p++) T.add(this.items.a[p]!, ROLE_NAME);
  }

  /** Folded words of a city or district name. */
  words(id: number, role: number, T: TokenTable): void {
    if (id === 0) return;
    const l = this.wordsOf.of(id, () => this.store(foldTokens(this.S.str(id)), 0));
    for (let p = this.start.a[l]!; p < this.start.a[l + 1]!; p++) T.add(this.items.a[p]!, role);
  }

  /** Words of other city names (joined with U+001F), as city tokens. */
  alternatives(id: number, T: TokenTable): void {
    const l = this.altOf.of(id, () => this.store(this.S.str(id).split(NAMES_US).flatMap((x) => foldTokens(x)), 0));
    for (let p = this.start.a[l]!; p < this.start.a[l + 1]!; p++) T.add(this.items.a[p]!, ROLE_CITY);
  }

  private store(tokens: string[], cc: number): number {
    for (const t of tokens) if (t) this.items.push(this.S.intern(t));
    this.country.push(cc);
    this.start.push(this.items.n);
    return this.start.n - 2;
  }
}
