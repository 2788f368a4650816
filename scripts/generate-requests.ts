/**
 * Deterministic generator of request elements, for benchmarks and large-file tests.
 *   node scripts/generate-requests.ts --op lines --count 1000000 [--seed 1] [--format ndjson|array] [--bad-every N] > file
 * Lines requests cover all 34 destinations, domestic and international, with additional data and
 * a share of invalid elements; nothing here comes from ../shared/data.
 */
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import { mulberry32 } from '../eval/support/prng.ts';

const SAMPLES: Array<[cc: string, street: string, zip: string, city: string, extra?: Record<string, string>]> = [
  ['AR', 'Avenida Corrientes', 'C1043AAZ', 'Buenos Aires'],
  ['AU', 'George Street', '2000', 'Sydney', { statecode: 'AU-NSW' }],
  ['AT', 'Mariahilfer Straße', '1070', 'Wien'],
  ['BE', 'Rue de la Loi', '1040', 'Bruxelles'],
  ['BR', 'Avenida Paulista', '01310-100', 'São Paulo', { statecode: 'BR-SP' }],
  ['CA', 'Rue Sainte-Catherine', 'H3B 1A7', 'Montréal', { statecode: 'CA-QC' }],
  ['CH', 'Bahnhofstrasse', '8001', 'Zürich'],
  ['CY', 'Makariou Avenue', '1065', 'Nicosia'],
  ['CZ', 'Václavské náměstí', '110 00', 'Praha'],
  ['DE', 'Königsallee', '40212', 'Düsseldorf'],
  ['DK', 'Vesterbrogade', '1620', 'København V'],
  ['EE', 'Narva mnt', '10117', 'Tallinn'],
  ['ES', 'Calle de Alcalá', '28014', 'Madrid', { statecode: 'ES-M' }],
  ['BG', 'bul. Vitosha', '1000', 'Sofia'],
  ['FI', 'Mannerheimintie', '00100', 'Helsinki'],
  ['FR', 'Avenue des Champs-Élysées', '75008', 'Paris'],
  ['GB', 'Baker Street', 'NW1 6XE', 'London'],
  ['GR', 'Ermou', '105 63', 'Athina'],
  ['HU', 'Andrássy út', '1061', 'Budapest'],
  ['IE', "O'Connell Street Upper", 'D01 F5P2', 'Dublin 1'],
  ['IT', 'Via del Corso', '00186', 'Roma', { statecode: 'IT-RM' }],
  ['HR', 'Ilica', '10000', 'Zagreb'],
  ['LI', 'Städtle', '9490', 'Vaduz'],
  ['LT', 'Gedimino pr.', '01103', 'Vilnius'],
  ['LU', 'Avenue de la Liberté', '1930', 'Luxembourg'],
  ['LV', 'Brīvības iela', '1010', 'Rīga'],
  ['MT', 'Republic Street', 'VLT 1117', 'Valletta'],
  ['NL', 'Damrak', '1012 LG', 'Amsterdam'],
  ['PL', 'ul. Marszałkowska', '00-624', 'Warszawa'],
  ['PT', 'Avenida da Liberdade', '1250-096', 'Lisboa'],
  ['RO', 'Calea Victoriei', '010061', 'București'],
  ['SE', 'Drottninggatan', '111 51', 'Stockholm'],
  ['SI', 'Slovenska cesta', '1000', 'Ljubljana'],
  ['SK', 'Obchodná', '811 06', 'Bratislava'],
];
const SENDERS = ['DE', 'FR', 'GB', 'US', 'NL', 'ES', 'IT', 'AT', 'CH', 'PT'];
const LANGS = ['', 'de', 'fr', 'es', 'pt', 'nl', 'en'];
const EXTRAS = ['', '', '', 'Apt 4', '2nd floor', 'Bâtiment C', 'c/o Müller'];


export function linesRequest(i: number, rand: () => number): Record<string, unknown> {
  const [cc, street, zip, city, extra] = SAMPLES[i % SAMPLES.length]!;
  const domestic = rand() < 0.4;
  const r: Record<string, unknown> = {
    id: i + 1,
    countrycode: cc,
    sendercountrycode: domestic ? cc : SENDERS[Math.floor(rand() * SENDERS.length)],
    street,
    housenumber: String(1 + Math.floor(rand() * 250)),
    zip,
    city,
    ...extra,
  };
  const lang = LANGS[Math.floor(rand() * LANGS.length)]!;
  if (lang) r.countrynamelanguage = lang;
  const add = EXTRAS[Math.floor(rand() * EXTRAS.length)]!;
  if (add) r.additionaldata = add;
  return r;
}

export function* generateLines(count: number, seed = 1, badEvery = 0): Generator<string> {
  const rand = mulberry32(seed);
  for (let i = 0; i < count; i++) {
    if (badEvery > 0 && i % badEvery === badEvery - 1) {
      yield i % (2 * badEvery) < badEvery ? `{"id":${i + 1},"countrycode":"DE"` : JSON.stringify({ id: i + 1, countrycode: 'DE' });
    } else {
      yield JSON.stringify(linesRequest(i, rand));
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      op: { type: 'string', default: 'lines' },
      count: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '1' },
      format: { type: 'string', default: 'ndjson' },
      'bad-every': { type: 'string', default: '0' },
    },
  });
  if (values.op !== 'lines') throw new Error('only --op lines is generated here; search inputs come from real address data (see eval/)');
  const array = values.format === 'array';
  let buf = array ? '[\n' : '';
  let first = true;
  for (const line of generateLines(Number(values.count), Number(values.seed), Number(values['bad-every']))) {
    buf += array ? (first ? '' : ',\n') + line : line + '\n';
    first = false;
    if (buf.length > 1 << 16) {
      if (!process.stdout.write(buf)) await once(process.stdout, 'drain');
      buf = '';
    }
  }
  if (array) buf += '\n]\n';
  process.stdout.write(buf);
}

if (import.meta.main) await main();
