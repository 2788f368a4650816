/**
 * The Kafka worker's ledger-topic messages (src/adapters/kafka/ledger-messages.ts), main-thread
 * work per slice: CPU per 100,000 entries of slices of 2,000 entries alike but for their ids (as a
 * settle makes them), Avro single-object values. With `--base DIR` (a checkout beside this one,
 * e.g. `git worktree add ../base <commit>`), the same entries through that checkout's module in
 * alternating rounds, and the messages must be the same bytes.
 *
 *   node tools/ledger-messages-cpu.ts [--base DIR] [--rounds 9]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createValueCodec } from '../src/adapters/kafka/avro/index.ts';
import { ledgerMessages } from '../src/adapters/kafka/ledger-messages.ts';
import type { LedgerEntry } from '../src/billing/store.ts';
import { median } from '../bench/support/median.ts';

const { values } = parseArgs({ options: { base: { type: 'string' }, rounds: { type: 'string', default: '9' } } });
type Make = typeof ledgerMessages;
const ways: Array<[string, Make]> = [['this checkout', ledgerMessages]];
if (values.base) {
  const mod = await import(pathToFileURL(`${resolve(values.base)}/src/adapters/kafka/ledger-messages.ts`).href) as { ledgerMessages: Make };
  ways.unshift(['base', mod.ledgerMessages]);
}

const codec = createValueCodec();
const ACCOUNT = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const JOB = 'kafka:Ab3dEf6hIj9kLm2nOp5qRs:bench-group';
const SLICE = 2000;
const SLICES = 50;
const slices: LedgerEntry[][] = Array.from({ length: SLICES }, (_, s) => Array.from({ length: SLICE }, (_, i) => ({
  id: `${ACCOUNT}/lines/${JOB}/${s % 4}/${1_000_000 + s * SLICE + i}`, account: ACCOUNT, function: 'lines' as const,
  credits: 1, requestid: `0190a1b2-0000-7000-8000-${String(s).padStart(12, '0')}`, time: new Date(Date.UTC(2026, 10, 26, 12, 0, s)).toISOString(),
})));

if (ways.length === 2) {
  const [a, b] = ways.map(([, make]) => make(codec, 'avro', slices[0]!));
  if (a!.some((m, i) => !m.value!.equals(b![i]!.value!) || !Buffer.from(m.key!).equals(Buffer.from(b![i]!.key!)))) throw new Error('the two checkouts write different messages');
}

/** CPU ms per 100,000 entries. */
function round(make: Make): number {
  const t0 = process.cpuUsage();
  let n = 0;
  for (const s of slices) n += make(codec, 'avro', s).length;
  const c = process.cpuUsage(t0);
  return (c.user + c.system) / 1000 * 100_000 / n;
}

const ms = new Map(ways.map(([name]) => [name, [] as number[]]));
for (let r = 0; r < Number(values.rounds) + 2; r++) {
  for (const [name, make] of r % 2 === 0 ? ways : [...ways].reverse()) {
    const t = round(make);
    if (r >= 2) ms.get(name)!.push(t); // two rounds of warm-up
  }
}
for (const [name, xs] of ms) console.log(`${name.padEnd(14)} ${median(xs).toFixed(1).padStart(6)} ms CPU per 100,000 ledger messages (median of ${xs.length} rounds: ${xs.map((x) => x.toFixed(0)).join(' ')})`);
