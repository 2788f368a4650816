/**
 * ISO 3166-2 codes for the GeoNames postcode admin fallback (GeoNames' own admin1 codes are not
 * ISO for most countries). OSM boundaries carry their ISO3166-2 tag and need none of this.
 */
const BY_CODE: Record<string, Record<string, string>> = {
  FR: { '11': 'IDF', '24': 'CVL', '27': 'BFC', '28': 'NOR', '32': 'HDF', '44': 'GES', '52': 'PDL', '53': 'BRE', '75': 'NAQ', '76': 'OCC', '84': 'ARA', '93': 'PAC', '94': 'COR' },
  DK: { '17': '84', '18': '82', '19': '81', '20': '85', '21': '83' },
  AT: { '01': '1', '02': '2', '03': '3', '04': '4', '05': '5', '06': '6', '07': '7', '08': '8', '09': '9' },
  DE: { '01': 'BW', '02': 'BY', '03': 'HB', '04': 'HH', '05': 'HE', '06': 'NI', '07': 'NW', '08': 'RP', '09': 'SL', '10': 'SH', '11': 'BB', '12': 'MV', '13': 'SN', '14': 'ST', '15': 'TH', '16': 'BE' },
};
const LI_BY_NAME: Record<string, string> = {
  Balzers: '01', Eschen: '02', Gamprin: '03', Mauren: '04', Planken: '05', Ruggell: '06', Schaan: '07',
  Schellenberg: '08', Triesen: '09', Triesenberg: '10', Vaduz: '11',
};

/** ISO 3166-2 code (e.g. `DK-84`) for a GeoNames admin1 code/name, or ''. */
export function isoSubdivision(country: string, geonamesCode: string, name: string): string {
  if (country === 'CH' && /^[A-Z]{2}$/.test(geonamesCode)) return `CH-${geonamesCode}`;
  if (country === 'LI') {
    const c = LI_BY_NAME[name];
    return c ? `LI-${c}` : '';
  }
  const c = BY_CODE[country]?.[geonamesCode];
  return c ? `${country}-${c}` : '';
}
