/**
 * Postal place names that are a city and one of its parts (AT: `Wien, Innere Stadt`,
 * `Klagenfurt,08.Bez.:Villacher Vorstadt`): the city goes in `city`, the part in `district`.
 * Per country, as data: elsewhere a comma means something else (ES `Nudos, Los`: an article put
 * after the name; AR: a department in parentheses), and the name stays whole.
 */
const CITY_AND_PART: Readonly<Record<string, RegExp>> = {
  AT: /^([^,]+?)\s*,\s*(?:\d+\.\s*Bez\.\s*:\s*)?([^,]+)$/,
};

/** [city, district] of a postal place name; district '' when the name is not of that shape. */
export function postalCityAndDistrict(country: string, place: string): [string, string] {
  const m = CITY_AND_PART[country]?.exec(place);
  return m ? [m[1]!.trim(), m[2]!.trim()] : [place, ''];
}
