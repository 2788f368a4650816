/**
 * Recipient-block engine throughput on one core, against @fragaria/address-formatter (the OpenCage
 * template port, the reference of the issue) on the same inputs, in the same run.
 *
 *   npm run bench -- lines-engine
 *
 * Input mix: the 34 destinations, each as domestic mail, international mail with additional data,
 * international mail in a second language, and a long-street variant that needs reduction
 * (abbreviation/wrapping) — 136 distinct requests, cycled. The reference formats the same
 * address components with appendCountry (its closest equivalent to our international block).
 * Targets (issue 2): ≥ 300,000 blocks/s per core and ≥ 30× the reference. Seven interleaved rounds
 * of 0.5 s each side; medians are reported and compared. One process = one core.
 */
import addressFormatter from '@fragaria/address-formatter';
import type { LinesRequest } from '../src/contract/requests.ts';
import { formatRecipientBlock } from '../src/engine/lines/index.ts';
import { SAMPLES } from '../test/engine/lines/samples.ts';

const inputs: LinesRequest[] = [];
for (const [cc, s] of Object.entries(SAMPLES)) {
  inputs.push({ countrycode: cc, sendercountrycode: cc, ...s.address });
  inputs.push({ countrycode: cc, sendercountrycode: s.sender, countrynamelanguage: s.langs[0], ...s.address, additionaldata: s.additionaldata });
  inputs.push({ countrycode: cc, sendercountrycode: s.sender, countrynamelanguage: s.langs[1], ...s.address });
  inputs.push({
    countrycode: cc, sendercountrycode: s.sender, ...s.address,
    street: `${s.address.street ?? ''} zwischen dem alten Marktplatz und dem Bahnhof`, maxcharsperline: 30,
  });
}

const referenceFormat = addressFormatter.format;
const referenceInputs = inputs.map((r) => ({
  input: {
    road: r.street, houseNumber: r.housenumber, city: r.city, postcode: r.zip, suburb: r.district,
    state: r.statecode?.split('-')[1] ?? r.state, house: r.additionaldata, countryCode: r.countrycode.toLowerCase(),
  },
  options: { appendCountry: r.sendercountrycode !== r.countrycode },
}));

/** Blocks per second of fn over one round of about `seconds`. */
function round(fn: (i: number) => unknown, seconds: number): number {
  let n = 0;
  let sink = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(Math.round(seconds * 1e9));
  let now = start;
  while (now < end) {
    for (let k = 0; k < 500; k++, n++) if (fn(n)) sink++;
    now = process.hrtime.bigint();
  }
  if (sink !== n) throw new Error('a call returned nothing');
  return n / (Number(now - start) / 1e9);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Interleaved rounds (ours, reference, ours, …) so that load from other processes on the machine
 * hits both sides alike; the medians are compared.
 */
function compare(a: (i: number) => unknown, b: (i: number) => unknown, rounds: number, seconds: number): [number[], number[]] {
  for (let i = 0; i < 20_000; i++) a(i);
  for (let i = 0; i < 2_000; i++) b(i);
  const ra: number[] = [];
  const rb: number[] = [];
  for (let r = 0; r < rounds; r++) {
    ra.push(round(a, seconds));
    rb.push(round(b, seconds));
  }
  return [ra, rb];
}

function show(name: string, xs: number[]): number {
  const m = median(xs);
  const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
  console.log(`${name.padEnd(32)} median ${fmt(m).padStart(10)} blocks/s (${(1e6 / m).toFixed(2)} µs/block; rounds ${xs.map(fmt).join(' ')})`);
  return m;
}

const len = inputs.length;
const statuses = new Map<number, number>();
for (const r of inputs) {
  const c = formatRecipientBlock(r).addresslinestatuscode;
  statuses.set(c, (statuses.get(c) ?? 0) + 1);
}
console.log(`inputs: ${len} requests over ${Object.keys(SAMPLES).length} destinations; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);

const [oursRounds, refRounds] = compare(
  (i) => formatRecipientBlock(inputs[i % len]!),
  (i) => {
    const x = referenceInputs[i % len]!;
    return referenceFormat(x.input, x.options);
  },
  7,
  0.5,
);
const ours = show('addrflow formatRecipientBlock', oursRounds);
const ref = show('@fragaria/address-formatter', refRounds);
const ratio = ours / ref;
console.log(`ratio: ${ratio.toFixed(1)}× the reference`);
const okSpeed = ours >= 300_000;
const okRatio = ratio >= 30;
console.log(`target ≥ 300,000 blocks/s: ${okSpeed ? 'met' : 'NOT met'}; target ≥ 30×: ${okRatio ? 'met' : 'NOT met'}`);
if (!okSpeed || !okRatio) process.exitCode = 1;
