/**
 * Stage 6 (score, see ../index.ts): the reasons relevance is lowered, one entry each, with the
 * points it takes off. The relevance (../record/record.ts) is the share of the input the answer
 * explains, in points of 100, then lowered by the fixed deductions below; an explanation
 * (../explain/) reports each deduction that applied, with its points for that answer.
 *
 * A deduction's `points` here is its size: fixed ones take it off as it stands; those marked
 * "share" take off the share of the input the word stands for (100 × weight / total weight)
 * times what its match lacked (1 − quality), and give here the quality lost; caps give here the
 * most the relevance may then be. Each is documented in docs/accuracy.md.
 */

export interface Deduction {
  code: string;
  points: number;
  why: string;
}

// --- share of the input (per word; points = 100 × weight / total × (1 − quality)) ---

/** A word of the input nothing in the answer explains. */
export const UNEXPLAINED_WORD: Deduction = { code: 'UNEXPLAINED_WORD', points: 1, why: 'a word of the input that nothing in the answer explains' };
/** The postcode given (zip field or a postcode-shaped word) is not the answer's. */
export const POSTCODE_NOT_MATCHED: Deduction = { code: 'POSTCODE_NOT_MATCHED', points: 1, why: 'the postcode given is not the answer\'s (wrong, or unknown in the index)' };
/** A word matched only as a typo neighbour (one edit away). */
export const TYPO: Deduction = { code: 'TYPO', points: 0.7, why: 'a word matched only as a misspelling (one edit away)' };
/** A word matched through its abbreviation's full form (`str` → `strasse`). */
export const ABBREVIATION: Deduction = { code: 'ABBREVIATION', points: 0.05, why: 'a word matched through an abbreviation\'s full form' };
/** A word matched in another role than its field gave (a street word as the town's name). */
export const OTHER_ROLE: Deduction = { code: 'OTHER_ROLE', points: 0.6, why: 'a word matched in another role than its field (street word as a town name, or the reverse)' };
/** The postcode matched only by its known prefix (the data holds only part of the code). */
export const POSTCODE_PREFIX: Deduction = { code: 'POSTCODE_PREFIX', points: 0.1, why: 'the postcode matched only by the part of the code the data knows' };
/** The place was named weakly: a typo, another name, or only its first words. */
export const WEAK_PLACE_NAME: Deduction = { code: 'WEAK_PLACE_NAME', points: 0.3, why: 'the place was named by a misspelling, another name or only its first words' };
/** The house number found is its base number (`12` for `12a`) or a range holding it. */
export const HOUSENUMBER_APPROXIMATE: Deduction = { code: 'HOUSENUMBER_APPROXIMATE', points: 0.3, why: 'the house number matched only as its base number or inside a range' };
/** The house number given is not in the answer (no such number in the street, or no street). */
export const HOUSENUMBER_NOT_FOUND: Deduction = { code: 'HOUSENUMBER_NOT_FOUND', points: 1, why: 'the house number given is not in the answer' };
/** The country given is unknown, or not the answer's. */
export const COUNTRY_NOT_MATCHED: Deduction = { code: 'COUNTRY_NOT_MATCHED', points: 1, why: 'the country given is unknown or not the answer\'s' };
/** The state given is not the answer's. */
export const STATE_NOT_MATCHED: Deduction = { code: 'STATE_NOT_MATCHED', points: 1, why: 'the state given is not the answer\'s' };
/** The county given is not the answer's. */
export const COUNTY_NOT_MATCHED: Deduction = { code: 'COUNTY_NOT_MATCHED', points: 1, why: 'the county given is not the answer\'s' };

// --- fixed ---

/** Per whole street name: the share of the street's name words the query left out, times this. */
export const STREET_NAME_PARTLY_NAMED: Deduction = { code: 'STREET_NAME_PARTLY_NAMED', points: 25, why: 'the query names only part of the street\'s name (times the share left out)' };
/** Two equally good streets in different towns: the answer is a guess between them. */
export const AMBIGUOUS_STREET: Deduction = { code: 'AMBIGUOUS_STREET', points: 15, why: 'the street exists in several towns and the query does not say which; add the town or postcode' };
/** Several places of the name, none much larger, and nothing in the query decides. */
export const HOMONYM_GUESS: Deduction = { code: 'HOMONYM_GUESS', points: 15, why: 'several places, or a place and a region, have this name and none is much more important; add a postcode, state or country' };
/**
 * Several places of the name in one country, none much larger, and nothing in the query decides:
 * the city, its country and the record's keys but the point and region are those of any of them.
 */
export const HOMONYM_IN_COUNTRY: Deduction = { code: 'HOMONYM_IN_COUNTRY', points: 5, why: 'several places of this name lie in the answer\'s country and none is much more important: the city and country are sure, the point and region may be another\'s; add a postcode or state' };
/** No country given: the street's type words or letters chose the country (`Rue` → FR among a postcode's countries), or words that name places in one country only (`Halle Saale`). */
export const COUNTRY_WEAK_EVIDENCE: Deduction = { code: 'COUNTRY_WEAK_EVIDENCE', points: 10, why: 'no country given; it was inferred from street-type words, letters or words that name places in one country only; add the country' };
/** No country given: the job's or account's preferred country chose among several. */
export const COUNTRY_PREFERRED: Deduction = { code: 'COUNTRY_PREFERRED', points: 5, why: 'no country given; the preferred country (prefer_country) chose among several that fit' };
/** The words that named the city are a state's name: the query may mean the state (`Île-de-France` is not Paris). */
export const STATE_NAMED: Deduction = { code: 'STATE_NAMED', points: 15, why: 'the words that named the city are the name of a state or region: the query may mean the region, not this city; add the city' };
/** The postcode and the city name different places; the postcode won. */
export const POSTCODE_CITY_DISAGREE: Deduction = { code: 'POSTCODE_CITY_DISAGREE', points: 20, why: 'the postcode and the city name different places; the answer follows the postcode' };

// --- caps (points = the most the relevance may then be) ---

/** A place or postcode answered a query that named a street or a house number (the fallback). */
export const STREET_NOT_FOUND: Deduction = { code: 'STREET_NOT_FOUND', points: 85, why: 'the query names a street or house number the answer does not hold: a place or postcode answered it' };
/** Nothing was found; the answer holds only the country given. */
export const COUNTRY_ONLY: Deduction = { code: 'COUNTRY_ONLY', points: 20, why: 'nothing was found but the country given: a country alone is not an address' };
/** Nothing was found and no country given. */
export const NOTHING_FOUND: Deduction = { code: 'NOTHING_FOUND', points: 0, why: 'nothing was found and no country was given' };

/** Every deduction that exists, for docs and tests. */
export const DEDUCTIONS: readonly Deduction[] = [
  UNEXPLAINED_WORD, POSTCODE_NOT_MATCHED, TYPO, ABBREVIATION, OTHER_ROLE, POSTCODE_PREFIX, WEAK_PLACE_NAME,
  HOUSENUMBER_APPROXIMATE, HOUSENUMBER_NOT_FOUND, COUNTRY_NOT_MATCHED, STATE_NOT_MATCHED, COUNTY_NOT_MATCHED,
  STREET_NAME_PARTLY_NAMED, AMBIGUOUS_STREET, POSTCODE_CITY_DISAGREE, HOMONYM_GUESS, HOMONYM_IN_COUNTRY, COUNTRY_WEAK_EVIDENCE,
  COUNTRY_PREFERRED, STATE_NAMED, STREET_NOT_FOUND, COUNTRY_ONLY, NOTHING_FOUND,
];

/**
 * Where a lookup asked to explain itself collects the deductions that applied (../record/
 * record.ts); `wordReason(i)` names why query word i's match lacks quality (../explain/ knows).
 * Without one, nothing is collected and nothing allocated.
 */
export interface DeductionSink {
  list: Deduction[];
  wordReason(token: number): Deduction;
}

/** The deduction `d` as applied: its code and why, with the points it took off this answer (one decimal). */
export function applied(d: Deduction, points: number): Deduction {
  return { code: d.code, points: Math.round(points * 10) / 10, why: d.why };
}
