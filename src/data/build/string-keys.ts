/**
 * The keys the build compares strings by, each computed once per distinct interned string and
 * interned in turn: the folded text (street and city grouping), the postcode key and the
 * house-number key (0: not a house number). Interning happens on first use, so the order of the
 * calls is part of the index's string table.
 */
import { foldText, houseNumberKey, postcodeKey } from '../../engine/lookup/normalize/normalize.ts';
import { DerivedIds, type StringInterner } from './interner.ts';

export class StringKeys {
  private readonly folded = new DerivedIds();
  private readonly postcodes = new DerivedIds();
  private readonly houseNumbers = new DerivedIds();
  private readonly S: StringInterner;
  constructor(S: StringInterner) {
    this.S = S;
  }

  fold(id: number): number {
    return this.folded.of(id, () => this.S.intern(foldText(this.S.str(id))));
  }

  postcode(id: number): number {
    return this.postcodes.of(id, () => this.S.intern(postcodeKey(this.S.str(id))));
  }

  houseNumber(id: number): number {
    return this.houseNumbers.of(id, () => this.S.intern(houseNumberKey(this.S.str(id))));
  }
}
