/**
 * The rule table: ONE entry per destination. A new destination is a new entry, never a code
 * branch. Decisions and sources: docs/recipient-block.md and ../shared/docs/recipient-block-rules.md §5.
 *
 * Line templates, top to bottom (the country line is added after them on international mail):
 * - `{field}` is a field (see fields.ts); a line whose fields are all empty disappears;
 * - text before the first field is that field's prefix (`CO. {county}`), text after the last
 *   field its suffix (`{housenumber}.`), text between fields a separator printed only when
 *   something stands before it;
 * - `~` is a glued space: wrapping never breaks there (postcode–town);
 * - `+` is a soft-glued space (street–house number): kept together unless the pair alone is
 *   longer than the line.
 * - `{additionaldata}` on a line with other fields is "inline"; reduction step 1 moves it to its
 *   own line below. On a line of its own it is printed there.
 */
import type { FieldName } from './fields.ts';
import type { PostcodeSpec } from './postcode.ts';
import { AR_PROVINCES, AU_STATES, BR_STATES, CA_PROVINCES, ES_PROVINCES } from './subdivisions.ts';

export type Requirement = 'street' | 'city' | 'zip' | 'state';

export interface StateSpec {
  /** What the `{state}` field prints: the ISO 3166-2 suffix, the name, or nothing. */
  readonly print: 'code' | 'name' | 'none';
  /** Known subdivisions, ISO 3166-2 suffix → name. Also the set of valid suffixes. */
  readonly subdivisions?: Readonly<Record<string, string>>;
  /** Valid suffixes when there is no list. */
  readonly suffixPattern?: RegExp;
}

export interface CountryRule {
  readonly lines: readonly string[];
  /** Status 30 when one of these is missing (`state` = statecode, state or statename). */
  readonly required: readonly Requirement[];
  /** Fields in capitals on all mail. */
  readonly upper: readonly FieldName[];
  /** Fields in capitals additionally on international mail. */
  readonly upperInternational: readonly FieldName[];
  /** Capitals without accents (La Poste). */
  readonly stripAccentsInUpper?: boolean;
  readonly postcode: PostcodeSpec;
  /** Prefix before the postcode on international mail only (spec README item 13). */
  readonly postcodePrefixInternational?: string;
  readonly state: StateSpec;
  /** The destination's own line limit where lower than the default 40. */
  readonly maxCharsPerLine?: number;
  /** Street-type abbreviations used in reduction step 2 (abbreviations.ts languages). */
  readonly abbreviationLanguages: readonly string[];
  /** Optional elements, in the order reduction step 4 drops them. */
  readonly optional: readonly FieldName[];
  /** Words removed from a field before printing (IE "County Cork" → "Cork" under "CO. "). */
  readonly clean?: Partial<Record<FieldName, RegExp>>;
  /** Text appended to a field whose value ends with a digit (HU "Virág tér 3."). */
  readonly suffix?: Partial<Record<FieldName, string>>;
  /** [a, b]: a is not printed when it equals b (case-insensitive). */
  readonly dropIfSame?: readonly (readonly [FieldName, FieldName])[];
  /** Where the rule comes from (shown in docs). */
  readonly sources: string;
}

const NO_STATE: StateSpec = { print: 'none' };
const d4: PostcodeSpec = { pattern: /^(\d{4})$/, output: '$1' };
const d5: PostcodeSpec = { pattern: /^(\d{5})$/, output: '$1' };
const d3d2: PostcodeSpec = { pattern: /^(\d{3}) ?(\d{2})$/, output: '$1 $2' };
const SCZ: readonly Requirement[] = ['street', 'city', 'zip'];
const SC: readonly Requirement[] = ['street', 'city'];
const CITY: readonly FieldName[] = ['city'];
const NONE: readonly FieldName[] = [];

export const RULES: Readonly<Record<string, CountryRule>> = {
  AR: {
    lines: ['{street}+{housenumber}', '{additionaldata}', '{district}', '{zip}~{city}', '{state}'],
    required: SC, upper: CITY, upperInternational: ['state'],
    postcode: { pattern: /^([A-HJ-NP-Z]?\d{4}) ?([A-Z]{3})?$/, output: '$1$2' },
    state: { print: 'name', subdivisions: AR_PROVINCES },
    abbreviationLanguages: ['es'], optional: ['district', 'state'],
    dropIfSame: [['district', 'city'], ['state', 'city']],
    sources: 'Correo Argentino/UPU (floor/dept under the street, ≤40 chars), Google (CPA without space)',
  },
  AU: {
    lines: ['{additionaldata}', '{housenumber}+{street}', '{city} {state} {zip}'],
    required: ['street', 'city', 'state', 'zip'], upper: ['city', 'state'], upperInternational: NONE,
    postcode: d4, state: { print: 'code', subdivisions: AU_STATES },
    abbreviationLanguages: ['en'], optional: [],
    sources: 'Australia Post presentation standard (last line in capitals, state abbreviation), Google',
  },
  AT: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { pattern: /^([1-9]\d{3})$/, output: '$1', inputPrefixes: ['AT-', 'A-'] }, state: NO_STATE,
    abbreviationLanguages: ['de'], optional: [],
    sources: 'Österreichische Post, Google, DIN 5008 (town in capitals abroad)',
  },
  BE: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { pattern: /^([1-9]\d{3})$/, output: '$1', inputPrefixes: ['BE-', 'B-'] }, state: NO_STATE,
    abbreviationLanguages: ['fr', 'nl'], optional: [],
    sources: 'bpost (number after street, no country line domestically), Google',
  },
  BR: {
    lines: ['{street}, {housenumber}, {additionaldata}', '{district}', '{city} - {state}', '{zip}'],
    required: ['street', 'city', 'state', 'zip'], upper: ['city', 'state'], upperInternational: NONE,
    postcode: { pattern: /^(\d{5})-?(\d{3})$/, output: '$1-$2' },
    state: { print: 'code', subdivisions: BR_STATES },
    abbreviationLanguages: ['pt'], optional: ['district'],
    dropIfSame: [['district', 'city']],
    sources: 'Correios (logradouro, nº, complemento / bairro / cidade-UF / CEP), Google, OpenCage',
  },
  CA: {
    lines: ['{additionaldata}', '{housenumber}+{street}', '{city} {state}~~{zip}'],
    required: ['street', 'city', 'state', 'zip'],
    upper: ['additionaldata', 'street', 'housenumber', 'city', 'state'], upperInternational: NONE,
    postcode: { pattern: /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]) ?(\d[ABCEGHJ-NPRSTV-Z]\d)$/, output: '$1 $2' },
    state: { print: 'code', subdivisions: CA_PROVINCES },
    abbreviationLanguages: ['en', 'fr'], optional: [],
    sources: 'Canada Post addressing guidelines (whole address in capitals, two spaces before the postal code)',
  },
  CH: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { pattern: /^([1-9]\d{3})$/, output: '$1', inputPrefixes: ['CH-'] }, state: NO_STATE,
    abbreviationLanguages: ['de', 'fr', 'it'], optional: [],
    sources: 'Swiss Post (no CH- prefix), Google',
  },
  CY: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city}'],
    required: SC, upper: NONE, upperInternational: CITY,
    postcode: { pattern: /^(\d{4})$/, output: '$1', inputPrefixes: ['CY-'] }, postcodePrefixInternational: 'CY-',
    state: NO_STATE, abbreviationLanguages: ['el'], optional: [],
    sources: 'EU Interinstitutional Style Guide 9.1.5 (CY- from abroad), spec README item 13',
  },
  CZ: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{district}', '{zip}~~{city}'],
    required: SCZ, upper: CITY, upperInternational: NONE,
    postcode: { ...d3d2, inputPrefixes: ['CZ-'] }, state: NO_STATE,
    abbreviationLanguages: ['cs'], optional: ['district'],
    dropIfSame: [['district', 'city']],
    sources: 'Česká pošta/ÚJČ (post office in capitals, two spaces after PSČ), ISG 9.1.5',
  },
  DE: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { ...d5, inputPrefixes: ['DE-', 'D-'] }, state: NO_STATE,
    abbreviationLanguages: ['de'], optional: [],
    sources: 'Deutsche Post, DIN 5008 (no D- prefix, town in capitals abroad)',
  },
  DK: {
    lines: ['{street}+{housenumber}, {additionaldata}', '{zip}~{city}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { ...d4, inputPrefixes: ['DK-'] }, state: NO_STATE,
    abbreviationLanguages: ['da'], optional: [],
    sources: 'PostNord DK convention (floor/side after the number), Google',
  },
  EE: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{district}', '{zip}~{city}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { ...d5, inputPrefixes: ['EE-'] }, state: NO_STATE,
    abbreviationLanguages: ['et'], optional: ['district'],
    dropIfSame: [['district', 'city']],
    sources: 'Omniva (postcode before the town), Google',
  },
  ES: {
    lines: ['{street}, {housenumber}, {additionaldata}', '{zip}~{city}', '{state}'],
    required: ['street', 'city', 'state', 'zip'], upper: ['city', 'state'], upperInternational: NONE,
    postcode: { pattern: /^((?:0[1-9]|[1-4]\d|5[0-2])\d{3})$/, output: '$1' },
    state: { print: 'name', subdivisions: ES_PROVINCES },
    abbreviationLanguages: ['es'], optional: [], dropIfSame: [['state', 'city']],
    sources: 'Correos and ISG 9.1.5 (province on its own line), Google (capitals, province required)',
  },
  BG: {
    lines: ['{street}+{housenumber}, {additionaldata}', '{district}', '{zip}~{city}'],
    required: SC, upper: NONE, upperInternational: CITY,
    postcode: { ...d4, inputPrefixes: ['BG-'] }, state: NO_STATE,
    abbreviationLanguages: ['bg'], optional: ['district'],
    dropIfSame: [['district', 'city']],
    sources: 'UPU/Bulgarian Posts (postcode left of the town), Google',
  },
  FI: {
    lines: ['{street}+{housenumber} {additionaldata}', '{zip}~{city}'],
    required: SCZ, upper: CITY, upperInternational: NONE,
    postcode: { ...d5, inputPrefixes: ['FI-'] }, state: NO_STATE,
    abbreviationLanguages: ['fi', 'sv'], optional: [],
    sources: 'Posti (00180 HELSINKI, stair/flat after the number), spec README item 13 (no FI-)',
  },
  FR: {
    lines: ['{additionaldata}', '{housenumber}+{street}', '{district}', '{zip}~{city}'],
    required: SCZ, upper: ['street', 'housenumber', 'district', 'city'], upperInternational: NONE,
    stripAccentsInUpper: true,
    postcode: { pattern: /^(\d{2}) ?(\d{3})$/, output: '$1$2', inputPrefixes: ['FR-', 'F-'] }, state: NO_STATE,
    maxCharsPerLine: 38, abbreviationLanguages: ['fr'], optional: ['district'],
    dropIfSame: [['district', 'city']],
    sources: 'La Poste NF Z10-011 (last 3 lines in unaccented capitals, ≤38 chars, no comma after the number)',
  },
  GB: {
    lines: ['{additionaldata}', '{housenumber}+{street}', '{district}', '{city}', '{zip}'],
    required: SCZ, upper: CITY, upperInternational: NONE,
    postcode: {
      pattern: /^(GIR|[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?) ?(0AA|\d[ABD-HJLNP-UW-Z]{2})$/,
      output: '$1 $2',
    },
    state: NO_STATE, abbreviationLanguages: ['en'], optional: ['district'],
    dropIfSame: [['district', 'city']],
    sources: 'Royal Mail/Post Office clear addressing (post town and postcode in capitals, own lines)',
  },
  GR: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { ...d3d2, inputPrefixes: ['GR-'] }, state: NO_STATE,
    abbreviationLanguages: ['el'], optional: [],
    sources: 'ELTA/ISG 9.1.5 (106 73), Google',
  },
  HU: {
    lines: ['{city}', '{street}+{housenumber} {additionaldata}', '{zip}'],
    suffix: { housenumber: '.' },
    required: SCZ, upper: ['city', 'street', 'additionaldata'], upperInternational: NONE,
    postcode: { ...d4, inputPrefixes: ['HU-', 'H-'] }, state: NO_STATE,
    abbreviationLanguages: ['hu'], optional: [],
    sources: 'Magyar Posta model, ISG 9.1.5, UPU and Google (town / street / postcode)',
  },
  IE: {
    lines: ['{additionaldata}', '{housenumber}+{street}', '{district}', '{city}', 'CO. {county}', '{zip}'],
    required: SC, upper: ['city', 'county'], upperInternational: NONE,
    postcode: { pattern: /^([AC-FHKNPRTV-Y]\d{2}|D6W) ?([0-9AC-FHKNPRTV-Y]{4})$/, output: '$1 $2' },
    state: NO_STATE, maxCharsPerLine: 32, abbreviationLanguages: ['en'], optional: ['district', 'county'],
    clean: { county: /^(?:county|co\.?)\s+/i }, dropIfSame: [['county', 'city']],
    sources: 'An Post/UPU (≤32 chars, county unless identical to the town), ISG 9.1.5 (Eircode own line)',
  },
  IT: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city} {state}'],
    required: ['street', 'city', 'state', 'zip'], upper: ['city', 'state'], upperInternational: NONE,
    postcode: { ...d5, inputPrefixes: ['IT-', 'I-'] },
    state: { print: 'code', suffixPattern: /^[A-Z]{2}$/ },
    abbreviationLanguages: ['it'], optional: [],
    sources: 'Poste Italiane (CAP LOCALITÀ SIGLA, no punctuation), Google',
  },
  HR: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { ...d5, inputPrefixes: ['HR-'] }, postcodePrefixInternational: 'HR-', state: NO_STATE,
    abbreviationLanguages: ['hr'], optional: [],
    sources: 'ISG 9.1.5 (HR- prefix), spec README item 13',
  },
  LI: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { pattern: /^(94(?:8[5-9]|9[0-8]))$/, output: '$1', inputPrefixes: ['FL-', 'LI-'] }, state: NO_STATE,
    abbreviationLanguages: ['de'], optional: [],
    sources: 'Liechtensteinische Post (Swiss postcode system), Google; no FL- (spec README item 13)',
  },
  LT: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { ...d5, inputPrefixes: ['LT-'] }, postcodePrefixInternational: 'LT-', state: NO_STATE,
    abbreviationLanguages: ['lt'], optional: [],
    sources: 'Lietuvos paštas/ISG 9.1.5 (LT- mandatory on international mail)',
  },
  LU: {
    lines: ['{additionaldata}', '{housenumber}, {street}', '{zip}~{city}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { ...d4, inputPrefixes: ['LU-', 'L-'] }, postcodePrefixInternational: 'L-', state: NO_STATE,
    abbreviationLanguages: ['fr', 'de'], optional: [],
    sources: 'POST Luxembourg/ISG 9.1.5 (number before the street, L- prefix)',
  },
  LV: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{district}', '{state}', '{city},~{zip}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { pattern: /^(?:LV-?)?(\d{4})$/, output: 'LV-$1' },
    state: { print: 'name', suffixPattern: /^\d{3}$/ },
    abbreviationLanguages: ['lv'], optional: ['district', 'state'],
    dropIfSame: [['district', 'city']],
    sources: 'Latvijas Pasts/ISG 9.1.5 (town, comma, LV-NNNN; LV- is part of the code)',
  },
  MT: {
    lines: ['{additionaldata}', '{housenumber}+{street}', '{city}', '{zip}'],
    required: SCZ, upper: ['zip'], upperInternational: CITY,
    postcode: { pattern: /^([A-Z]{3}) ?(\d{2,4})$/, output: '$1 $2' }, state: NO_STATE,
    abbreviationLanguages: ['mt', 'en'], optional: [],
    sources: 'MaltaPost/ISG 9.1.5 and OpenCage (postcode on its own line under the town)',
  },
  NL: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~~{city}'],
    required: SCZ, upper: CITY, upperInternational: NONE,
    postcode: { pattern: /^([1-9]\d{3}) ?((?!SA|SD|SS)[A-Z]{2})$/, output: '$1 $2', inputPrefixes: ['NL-'] },
    state: NO_STATE, abbreviationLanguages: ['nl'], optional: [],
    sources: 'PostNL/ISG 9.1.5 (1017 CD  AMSTERDAM, two spaces before the town)',
  },
  PL: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city}'],
    required: SCZ, upper: CITY, upperInternational: NONE,
    postcode: { pattern: /^(\d{2})-?(\d{3})$/, output: '$1-$2', inputPrefixes: ['PL-'] }, state: NO_STATE,
    abbreviationLanguages: ['pl'], optional: [],
    sources: 'Poczta Polska (kod pocztowy i MIEJSCOWOŚĆ wielkimi literami)',
  },
  PT: {
    lines: ['{street}+{housenumber}, {additionaldata}', '{district}', '{zip}~{city}'],
    required: SCZ, upper: CITY, upperInternational: NONE,
    postcode: { pattern: /^(\d{4})-?(\d{3})$/, output: '$1-$2', inputPrefixes: ['PT-'] }, state: NO_STATE,
    abbreviationLanguages: ['pt'], optional: ['district'],
    dropIfSame: [['district', 'city']],
    sources: 'CTT (postal designation in capitals), Google',
  },
  RO: {
    lines: ['{street} nr.+{housenumber}, {additionaldata}', '{zip}~{city}', '{county}'],
    required: SCZ, upper: CITY, upperInternational: NONE,
    postcode: { pattern: /^(\d{6})$/, output: '$1', inputPrefixes: ['RO-'] }, state: NO_STATE,
    abbreviationLanguages: ['ro'], optional: ['county'],
    dropIfSame: [['county', 'city']],
    sources: 'Poșta Română conventions (nr., inline block/floor/flat, county after the town), Google',
  },
  SE: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city}'],
    required: SCZ, upper: CITY, upperInternational: NONE,
    postcode: { ...d3d2, inputPrefixes: ['SE-', 'S-'] }, state: NO_STATE,
    abbreviationLanguages: ['sv'], optional: [],
    sources: 'PostNord SE (postort in capitals); no SE- (spec README item 13)',
  },
  SI: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~{city}'],
    required: SCZ, upper: NONE, upperInternational: CITY,
    postcode: { pattern: /^([1-9]\d{3})$/, output: '$1', inputPrefixes: ['SI-'] }, state: NO_STATE,
    abbreviationLanguages: ['sl'], optional: [],
    sources: 'Pošta Slovenije (postcode before the post office); no SI- (spec README item 13)',
  },
  SK: {
    lines: ['{additionaldata}', '{street}+{housenumber}', '{zip}~~{city}'],
    required: SCZ, upper: CITY, upperInternational: NONE,
    postcode: { ...d3d2, inputPrefixes: ['SK-'] }, state: NO_STATE,
    abbreviationLanguages: ['sk'], optional: [],
    sources: 'Slovenská pošta (as CZ: post office in capitals, two spaces after the PSČ)',
  },
};
