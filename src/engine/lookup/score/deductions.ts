/**
 * Stage 6 (score, see ../index.ts): the relevance deductions, in one place. Relevance starts from
 * the share of the query the answer explains (record/record.ts); each deduction below takes a
 * fixed number of points off when the lookup had to guess, so that relevance ≥ 90 means the
 * answer is right. The lookup collects the deductions it applied for a record (lookupExplained in
 * ../index.ts): codes and reasons for an `explain` opt-in; they are not in the spec's output.
 * docs/accuracy.md lists them.
 */
export interface Deduction {
  /** Stable code (upper snake case). */
  code: string;
  /** Relevance points taken off. */
  points: number;
  /** Why, in one sentence a user can act on. */
  why: string;
}

/** Two equally good streets in different towns: the answer is one of them. */
export const AMBIGUOUS_STREET: Deduction = {
  code: 'AMBIGUOUS_STREET', points: 15,
  why: 'the street exists in several towns and the query does not say which; add the town or postcode',
};
/** The postcode and the city name different places: the postcode's place is answered. */
export const POSTCODE_CITY_DISAGREE: Deduction = {
  code: 'POSTCODE_CITY_DISAGREE', points: 20,
  why: 'the postcode and the city name different places; the postcode was followed',
};
/** Several places of the name, none much larger, and nothing in the query decides. */
export const HOMONYM_GUESS: Deduction = {
  code: 'HOMONYM_GUESS', points: 15,
  why: 'several places have this name and none is much more important; add a postcode, state or country',
};
/** No country given: the street's type words or letters chose the country (`Rue` → FR among a postcode's countries). */
export const COUNTRY_WEAK_EVIDENCE: Deduction = {
  code: 'COUNTRY_WEAK_EVIDENCE', points: 10,
  why: 'no country given; it was inferred from street-type words or letters only; add the country',
};
/** No country given: the job's or account's preferred country chose among several. */
export const COUNTRY_PREFERRED: Deduction = {
  code: 'COUNTRY_PREFERRED', points: 5,
  why: 'no country given; the preferred country (prefer_country) chose among several that fit',
};
/** The place was named by a misspelling (a typo neighbour). */
export const NAME_FUZZY: Deduction = {
  code: 'NAME_FUZZY', points: 10,
  why: 'the place name matched only with a spelling correction',
};
/** The place was named by another name (an exonym, an older or alternate name). */
export const NAME_ALTERNATE: Deduction = {
  code: 'NAME_ALTERNATE', points: 5,
  why: 'the place name matched one of its other names, not its own',
};

/** Every deduction, for the docs and the explain opt-in. */
export const DEDUCTIONS: readonly Deduction[] = [
  AMBIGUOUS_STREET, POSTCODE_CITY_DISAGREE, HOMONYM_GUESS, COUNTRY_WEAK_EVIDENCE, COUNTRY_PREFERRED, NAME_FUZZY, NAME_ALTERNATE,
];

/** A general answer (a place or postcode) to a query that names a street or house number never reaches 90. */
export const STREET_NOT_HELD_CAP = 85;
