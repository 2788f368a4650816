/**
 * Countries: ISO 3166-1 alpha-2 ↔ alpha-3, localised names (CLDR through Intl.DisplayNames, the
 * same source as the pinned table in shared/data/country-names), and recognition of a country
 * given as a code or a name in any of the supported languages.
 */
import { foldText } from './normalize.ts';

const PAIRS =
  'AD AND AE ARE AF AFG AG ATG AI AIA AL ALB AM ARM AO AGO AQ ATA AR ARG AS ASM AT AUT AU AUS AW ABW AX ALA ' +
  'AZ AZE BA BIH BB BRB BD BGD BE BEL BF BFA BG BGR BH BHR BI BDI BJ BEN BL BLM BM BMU BN BRN BO BOL BQ BES ' +
  'BR BRA BS BHS BT BTN BV BVT BW BWA BY BLR BZ BLZ CA CAN CC CCK CD COD CF CAF CG COG CH CHE CI CIV CK COK ' +
  'CL CHL CM CMR CN CHN CO COL CR CRI CU CUB CV CPV CW CUW CX CXR CY CYP CZ CZE DE DEU DJ DJI DK DNK DM DMA ' +
  'DO DOM DZ DZA EC ECU EE EST EG EGY EH ESH ER ERI ES ESP ET ETH FI FIN FJ FJI FK FLK FM FSM FO FRO FR FRA ' +
  'GA GAB GB GBR GD GRD GE GEO GF GUF GG GGY GH GHA GI GIB GL GRL GM GMB GN GIN GP GLP GQ GNQ GR GRC GS SGS ' +
  'GT GTM GU GUM GW GNB GY GUY HK HKG HM HMD HN HND HR HRV HT HTI HU HUN ID IDN IE IRL IL ISR IM IMN IN IND ' +
  'IO IOT IQ IRQ IR IRN IS ISL IT ITA JE JEY JM JAM JO JOR JP JPN KE KEN KG KGZ KH KHM KI KIR KM COM KN KNA ' +
  'KP PRK KR KOR KW KWT KY CYM KZ KAZ LA LAO LB LBN LC LCA LI LIE LK LKA LR LBR LS LSO LT LTU LU LUX LV LVA ' +
  'LY LBY MA MAR MC MCO MD MDA ME MNE MF MAF MG MDG MH MHL MK MKD ML MLI MM MMR MN MNG MO MAC MP MNP MQ MTQ ' +
  'MR MRT MS MSR MT MLT MU MUS MV MDV MW MWI MX MEX MY MYS MZ MOZ NA NAM NC NCL NE NER NF NFK NG NGA NI NIC ' +
  'NL NLD NO NOR NP NPL NR NRU NU NIU NZ NZL OM OMN PA PAN PE PER PF PYF PG PNG PH PHL PK PAK PL POL PM SPM ' +
  'PN PCN PR PRI PS PSE PT PRT PW PLW PY PRY QA QAT RE REU RO ROU RS SRB RU RUS RW RWA SA SAU SB SLB SC SYC ' +
  'SD SDN SE SWE SG SGP SH SHN SI SVN SJ SJM SK SVK SL SLE SM SMR SN SEN SO SOM SR SUR SS SSD ST STP SV SLV ' +
  'SX SXM SY SYR SZ SWZ TC TCA TD TCD TF ATF TG TGO TH THA TJ TJK TK TKL TL TLS TM TKM TN TUN TO TON TR TUR ' +
  'TT TTO TV TUV TW TWN TZ TZA UA UKR UG UGA UM UMI US USA UY URY UZ UZB VA VAT VC VCT VE VEN VG VGB VI VIR ' +
  'VN VNM VU VUT WF WLF WS WSM XK XKX YE YEM YT MYT ZA ZAF ZM ZMB ZW ZWE';

const ISO3 = new Map<string, string>();
const ISO2_OF3 = new Map<string, string>();
{
  const p = PAIRS.split(' ');
  for (let i = 0; i + 1 < p.length; i += 2) {
    ISO3.set(p[i]!, p[i + 1]!);
    ISO2_OF3.set(p[i + 1]!, p[i]!);
  }
}

export function iso3Of(iso2: string): string {
  return ISO3.get(iso2) ?? '';
}

/** Languages whose country names are recognised in queries. */
const NAME_LANGS = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'da', 'sv', 'fi', 'pl', 'cs', 'sk', 'hu', 'ro', 'hr', 'sl', 'et', 'lv', 'lt', 'bg', 'el', 'mt', 'ga'];

const displayNames = new Map<string, Intl.DisplayNames>();
function namesFor(lang: string): Intl.DisplayNames | undefined {
  let d = displayNames.get(lang);
  if (!d) {
    try {
      d = new Intl.DisplayNames([lang], { type: 'region', fallback: 'none' });
    } catch {
      return undefined;
    }
    displayNames.set(lang, d);
  }
  return d;
}

/** Country name in the language of `locale` (English when absent or unknown). */
export function countryName(iso2: string, locale: string | undefined): string {
  const lang = (locale ?? '').split(/[-_]/)[0]!.toLowerCase();
  const d = (lang && namesFor(lang)) || namesFor('en');
  return d?.of(iso2) ?? '';
}

let byName: Map<string, string> | undefined;
/** Folded country name (any supported language, plus common extra forms) → alpha-2. */
function nameTable(): Map<string, string> {
  if (byName) return byName;
  byName = new Map();
  for (const lang of NAME_LANGS) {
    const d = namesFor(lang);
    if (!d) continue;
    for (const iso2 of ISO3.keys()) {
      const n = d.of(iso2);
      if (n) {
        const f = foldText(n);
        if (f && !byName.has(f)) byName.set(f, iso2);
      }
    }
  }
  const extra: Record<string, string> = {
    'fl': 'LI', 'furstentum liechtenstein': 'LI', 'danmark': 'DK', 'deutschland': 'DE', 'osterreich': 'AT',
    'schweiz': 'CH', 'suisse': 'CH', 'svizzera': 'CH', 'england': 'GB', 'uk': 'GB', 'united kingdom': 'GB',
    'great britain': 'GB', 'scotland': 'GB', 'wales': 'GB', 'usa': 'US', 'united states of america': 'US',
    'holland': 'NL', 'nederland': 'NL', 'sverige': 'SE', 'suomi': 'FI', 'polska': 'PL', 'espana': 'ES',
    'italia': 'IT', 'eire': 'IE', 'magyarorszag': 'HU', 'cesko': 'CZ', 'ceska republika': 'CZ',
    'slovensko': 'SK', 'slovenija': 'SI', 'hrvatska': 'HR', 'eesti': 'EE', 'latvija': 'LV', 'lietuva': 'LT',
    'romania': 'RO', 'belgie': 'BE', 'belgique': 'BE', 'brasil': 'BR', 'kypros': 'CY', 'ellada': 'GR',
  };
  for (const [k, v] of Object.entries(extra)) if (!byName.has(k)) byName.set(k, v);
  return byName;
}

/** A country given as alpha-2, alpha-3 or a name → alpha-2, or '' when not recognised. */
export function resolveCountry(value: string): string {
  const raw = value.trim();
  if (raw === '') return '';
  const up = raw.toUpperCase();
  if (up.length === 2 && ISO3.has(up)) return up;
  if (up.length === 3 && ISO2_OF3.has(up)) return ISO2_OF3.get(up)!;
  return nameTable().get(foldText(raw)) ?? '';
}

/** Alpha-2 of a folded phrase that is a country name (not a code), or ''. For free text. */
export function countryOfPhrase(folded: string): string {
  return nameTable().get(folded) ?? '';
}

export function isCountryCode(iso2: string): boolean {
  return ISO3.has(iso2);
}
