import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateLines } from '../../../scripts/generate-requests.ts';
import { runCli, startCli } from '../../helpers/cli.ts';
import { Billing } from '../../../src/billing/billing.ts';
import { EXIT_UNREADABLE_ROWS } from '../../../src/contract/exit-codes.ts';

function chargeableIn(output: string): number {
  return output.trimEnd().split('\n').map((l) => JSON.parse(l)).filter((r) => r.addresslinestatuscode === 0 || r.addresslinestatuscode === 1).length;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'addrflow-job-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeInput(name: string, lines: string[], format: 'ndjson' | 'array' = 'ndjson'): string {
  const path = join(dir, name);
  writeFileSync(path, format === 'array' ? '[\n' + lines.join(',\n') + '\n]\n' : lines.join('\n') + '\n');
  return path;
}

const sample = [...generateLines(5000, 7, 0)];

describe('addrflow run --op lines (file jobs)', () => {
  it('writes one record per element, in input order, with the id echoed first', async () => {
    const input = writeInput('order.ndjson', sample);
    const out = join(dir, 'order.out');
    const r = await runCli(['run', '--op', 'lines', '--input', input, '--output', out, '--batch-size', '97', '--workers', '2', '--progress', 'off']);
    expect(r.code, r.stderr).toBe(0);
    const records = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(records).toHaveLength(5000);
    expect(records.map((x) => x.id)).toEqual(sample.map((l) => JSON.parse(l).id));
    expect(Object.keys(records[0])).toEqual(['id', 'addressline1', 'addressline2', 'addressline3', 'addressline4', 'addressline5', 'addressline6', 'addresslinestatuscode', 'addresslinestatusmessage']);
    expect(r.stderr).toMatch(/finished — 5,000 records/);
  });

  it('gives identical output for a JSON array and for NDJSON of the same elements', async () => {
    const a = join(dir, 'same-a.out');
    const b = join(dir, 'same-b.out');
    const common = ['--op', 'lines', '--batch-size', '250', '--progress', 'off'];
    expect((await runCli(['run', ...common, '--input', writeInput('same.ndjson', sample), '--output', a])).code).toBe(0);
    expect((await runCli(['run', ...common, '--input', writeInput('same.json', sample, 'array'), '--output', b])).code).toBe(0);
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
  });

  it('keeps going over malformed and invalid lines, each reported in its slot with its line number', async () => {
    const lines = [sample[0]!, '{"id":2,"countrycode":', sample[2]!, '', JSON.stringify({ id: 5, countrycode: 'DE' }), 'not json', sample[6]!];
    const input = writeInput('bad.ndjson', lines);
    const r = await runCli(['run', '--op', 'lines', '--input', input, '--progress', 'off']);
    expect(r.code, r.stderr).toBe(EXIT_UNREADABLE_ROWS); // [unreadable] rows not readable as records: exit 9, not 0
    const out = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(6); // the blank line 4 is not a record
    expect(out[0].addresslinestatuscode).toBeTypeOf('number');
    expect(out[1]).toEqual({ errorcode: 412, errormessage: expect.stringMatching(/^Line 2: not valid JSON/) });
    expect(out[3]).toEqual({ id: 5, errorcode: 428, errormessage: expect.stringContaining('sendercountrycode') });
    expect(out[4]).toEqual({ errorcode: 412, errormessage: expect.stringMatching(/^Line 6: not valid JSON/) });
    expect(out[5].id).toBe(JSON.parse(sample[6]!).id);
    // the 428 of line 5 is a refused record, not an unreadable one
    expect(r.stderr).toMatch(/^addrflow run: ADDR_ERR_ROWS_UNREADABLE: 2 lines unreadable \(line 2, line 6\);.*--max-rejected 2/m);
  });

  it('reports a line that is not valid UTF-8 instead of guessing its characters', async () => {
    const path = join(dir, 'latin1.ndjson');
    writeFileSync(path, Buffer.concat([Buffer.from(sample[0]! + '\n'), Buffer.from('{"id":2,"countrycode":"DE","sendercountrycode":"DE","city":"K', 'utf8'), Buffer.from([0xf6]), Buffer.from('ln"}\n'), Buffer.from(sample[2]! + '\n')]));
    const r = await runCli(['run', '--op', 'lines', '--input', path, '--progress', 'off']);
    expect(r.code, r.stderr).toBe(EXIT_UNREADABLE_ROWS); // [unreadable] rows not readable as records: exit 9, not 0
    const out = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(3);
    expect(out[1]).toEqual({ errorcode: 412, errormessage: 'Line 2: not valid UTF-8.' });
    expect(out[2].id).toBe(JSON.parse(sample[2]!).id);
  });

  it('skips a runaway 3 MiB line with an error record in its slot and processes the rest', async () => {
    const path = join(dir, 'runaway.ndjson');
    writeFileSync(path, `${sample[0]}\n{"id":2,"city":"${'x'.repeat(3 << 20)}"}\n${sample[2]}\n`);
    const r = await runCli(['run', '--op', 'lines', '--input', path, '--progress', 'off']);
    expect(r.code, r.stderr).toBe(EXIT_UNREADABLE_ROWS); // [unreadable] rows not readable as records: exit 9, not 0
    const out = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(3);
    expect(out[1]).toEqual({ errorcode: 412, errormessage: expect.stringMatching(/^Line 2: longer than 1048576 bytes/) });
    expect(out[2].id).toBe(JSON.parse(sample[2]!).id);
  });

  it('sends rejected records to --errors with their line numbers', async () => {
    const input = writeInput('errs.ndjson', [sample[0]!, 'oops', sample[1]!]);
    const out = join(dir, 'errs.out');
    const errors = join(dir, 'errs.err');
    const r = await runCli(['run', '--op', 'lines', '--input', input, '--output', out, '--errors', errors, '--progress', 'off']);
    expect(r.code, r.stderr).toBe(EXIT_UNREADABLE_ROWS); // [unreadable] rows not readable as records: exit 9, not 0
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(2);
    expect(JSON.parse(readFileSync(errors, 'utf8'))).toEqual({ line: 2, errorcode: 412, errormessage: expect.stringContaining('Line 2') });
  });

  it('reads stdin and writes stdout', async () => {
    const r = await runCli(['run', '--op', 'lines', '--progress', 'off'], { stdin: sample.slice(0, 20).join('\n') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id)).toEqual(sample.slice(0, 20).map((l) => JSON.parse(l).id));
  });

  it('answers a usage error with exit code 2 and the usage text', async () => {
    const r = await runCli(['run', '--op', 'geocode']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--op must be search or lines/);
  });
});

describe('resume after kill -9 and after SIGINT', () => {
  const big = [...generateLines(300_000, 11, 1000)];
  let input: string;
  let reference: string;
  beforeAll(async () => {
    input = writeInput('big.ndjson', big);
    const ref = join(dir, 'big.ref');
    const r = await runCli(['run', '--op', 'lines', '--input', input, '--output', ref, '--progress', 'off']);
    expect(r.code, r.stderr).toBe(EXIT_UNREADABLE_ROWS); // [unreadable] rows not readable as records: exit 9, not 0
    reference = readFileSync(ref, 'utf8');
  }, 120_000);

  async function interruptThenResume(signal: 'SIGKILL' | 'SIGINT', name: string) {
    const out = join(dir, `${name}.out`);
    // Metered, so that the ledger shows whether any record was charged twice or not at all.
    const db = `sqlite:${join(dir, `${name}.sqlite`)}`;
    const START = 20 * 1_000_000;
    const created = await runCli(['accounts', 'create', '--credits', String(START), '--agree', 'lines', '--db', db]);
    expect(created.code, created.stderr).toBe(0);
    const acc = JSON.parse(created.stdout) as { license: string; guid: string; account: string };
    const args = ['run', '--op', 'lines', '--input', input, '--output', out, '--batch-size', '500', '--checkpoint-interval', '50', '--progress', 'off',
      '--license', acc.license, '--guid', acc.guid, '--db', db];
    const { child, done } = startCli(args);
    // Wait until the job has written a first checkpoint and part of the output, then interrupt.
    const started = Date.now();
    while (!existsSync(`${out}.checkpoint`) && Date.now() - started < 60_000) await sleep(20);
    await sleep(Math.floor(Math.random() * 150));
    child.kill(signal);
    const first = await done;
    if (signal === 'SIGKILL') expect(first.signal).toBe('SIGKILL');
    else {
      expect(first.code, first.stderr).toBe(130);
      expect(first.stderr).toMatch(/--resume/);
    }
    const partial = readFileSync(out, 'utf8');
    expect(partial.length).toBeLessThan(reference.length);
    const second = await runCli([...args, '--resume']);
    expect(second.code, second.stderr).toBe(EXIT_UNREADABLE_ROWS); // [unreadable] rows not readable as records: exit 9, not 0
    expect(readFileSync(out, 'utf8')).toBe(reference);
    expect(existsSync(`${out}.checkpoint`)).toBe(false);
    const billing = await Billing.open(db);
    try {
      // every chargeable record charged exactly once, across the kill and the resume, as one job
      const charged = chargeableIn(reference);
      expect(await billing.store.ledgerCount(acc.account)).toBe(charged);
      expect(await billing.balance(acc.account)).toBe(START - 20 * charged);
      const jobs = new Set((await billing.ledger(acc.account, 1_000_000)).map((e) => e.id.split('/')[2]));
      expect(jobs.size).toBe(1);
      // the killed run's reservation (if any) is released once its lease ends; nothing else is held
      await billing.store.releaseExpired(new Date(Date.now() + 3600_000).toISOString());
      expect((await billing.findAccount({ id: acc.account }))!.reserved).toBe(0);
    } finally {
      await billing.close();
    }
  }

  it('kill -9 at a random point, then --resume: output identical to an uninterrupted run', async () => {
    await interruptThenResume('SIGKILL', 'killed');
  }, 120_000);

  it('kill -9 before any interval checkpoint: the job id was durable first, so --resume continues the same job and charges each record once', async () => {
    const out = join(dir, 'early.out');
    const db = `sqlite:${join(dir, 'early.sqlite')}`;
    const created = await runCli(['accounts', 'create', '--credits', String(20 * 1_000_000), '--agree', 'lines', '--db', db]);
    const acc = JSON.parse(created.stdout) as { license: string; guid: string; account: string };
    const args = ['run', '--op', 'lines', '--input', input, '--output', out, '--batch-size', '500', '--checkpoint-interval', '600000',
      '--progress', 'off', '--license', acc.license, '--guid', acc.guid, '--db', db];
    const { child, done } = startCli(args);
    // records are being written (and charged) while the only checkpoint is the one made at start
    const started = Date.now();
    const { statSync } = await import('node:fs');
    while ((!existsSync(out) || statSync(out).size < 200_000) && Date.now() - started < 60_000) await sleep(10);
    child.kill('SIGKILL');
    await done;
    const cp = JSON.parse(readFileSync(`${out}.checkpoint`, 'utf8'));
    expect(cp.recordsDone).toBe(0);
    const billing = await Billing.open(db);
    const chargedBefore = await billing.store.ledgerCount(acc.account);
    await billing.close();
    expect(chargedBefore).toBeGreaterThan(0);
    const second = await runCli([...args, '--resume']);
    expect(second.code, second.stderr).toBe(EXIT_UNREADABLE_ROWS); // [unreadable] rows not readable as records: exit 9, not 0
    expect(readFileSync(out, 'utf8')).toBe(reference);
    const after = await Billing.open(db);
    try {
      const ledger = await after.ledger(acc.account, 1_000_000);
      expect(ledger).toHaveLength(chargeableIn(reference));
      expect(new Set(ledger.map((e) => e.id.split('/')[2]))).toEqual(new Set([`file:${cp.jobId}`]));
      expect(await after.balance(acc.account)).toBe(20 * 1_000_000 - 20 * chargeableIn(reference));
    } finally {
      await after.close();
    }
  }, 120_000);

  it('SIGINT finishes in-flight batches, checkpoints, exits 130, and --resume completes identically', async () => {
    await interruptThenResume('SIGINT', 'interrupted');
  }, 120_000);
});

describe('metered jobs (--license/--guid)', () => {
  const records = [...generateLines(3000, 5, 0)];
  let db: string;
  let input: string;
  let reference: string;
  let chargeable: number;
  beforeAll(async () => {
    db = `sqlite:${join(dir, 'billing.sqlite')}`;
    input = writeInput('metered.ndjson', records);
    const ref = join(dir, 'metered.ref');
    expect((await runCli(['run', '--op', 'lines', '--input', input, '--output', ref, '--progress', 'off'])).code).toBe(0);
    reference = readFileSync(ref, 'utf8');
    chargeable = chargeableIn(reference);
    expect(chargeable).toBeGreaterThan(2000);
  });

  async function account(credits: number, agree = 'lines'): Promise<{ license: string; guid: string; account: string }> {
    const r = await runCli(['accounts', 'create', '--credits', String(credits), '--agree', agree, '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  }

  async function show(id: string): Promise<{ credits: number; reserved: number }> {
    const r = await runCli(['accounts', 'show', '--account', id, '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  }

  it('stops cleanly when credits run out, and after a top-up --resume completes: same output, each record charged once', async () => {
    const acc = await account(20 * 1200);
    const out = join(dir, 'metered.out');
    const args = ['run', '--op', 'lines', '--input', input, '--output', out, '--batch-size', '100', '--progress', 'off',
      '--license', acc.license, '--guid', acc.guid, '--db', db];
    const first = await runCli(args);
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toMatch(/balance ran out/);
    expect(existsSync(`${out}.checkpoint`)).toBe(true);
    const mid = await show(acc.account);
    expect(mid.reserved).toBe(0);
    expect(mid.credits).toBeLessThan(20); // less than one more record's price is left
    const topup = await runCli(['accounts', 'topup', '--account', acc.account, '--credits', String(20 * 3000), '--db', db]);
    expect(topup.code, topup.stderr).toBe(0);
    const second = await runCli([...args, '--resume']);
    expect(second.code, second.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(reference);
    const end = await show(acc.account);
    expect(end.credits).toBe(20 * 1200 + 20 * 3000 - 20 * chargeable);
    // Running the file again without --resume is a new job: charged again, in full.
    expect((await runCli(['accounts', 'topup', '--account', acc.account, '--credits', String(20 * 3000), '--db', db])).code).toBe(0);
    const again = await runCli(args);
    expect(again.code, again.stderr).toBe(0);
    expect((await show(acc.account)).credits).toBe(end.credits + 20 * 3000 - 20 * chargeable);
  }, 120_000);

  it('a ledger entry belongs to one account, one function and one job (issue 12 examples)', async () => {
    // a 500-record file, metered --op lines
    const small = writeInput('five-hundred.ndjson', records.slice(0, 500));
    const ref = await runCli(['run', '--op', 'lines', '--input', small, '--progress', 'off']);
    const perRun = 20 * chargeableIn(ref.stdout);
    expect(perRun).toBeGreaterThan(0);
    const a = await account(1_000_000, 'lines,search');
    const b = await account(1_000_000, 'lines');
    const run = (acc: { license: string; guid: string }, op: string, out: string) => runCli(['run', '--op', op, '--input', small, '--output', join(dir, out),
      '--progress', 'off', '--license', acc.license, '--guid', acc.guid, '--db', db]);
    // A runs it: charged
    expect((await run(a, 'lines', 'a1.out')).code).toBe(0);
    expect((await show(a.account)).credits).toBe(1_000_000 - perRun);
    // A runs the same file again as a new job: charged again
    expect((await run(a, 'lines', 'a2.out')).code).toBe(0);
    expect((await show(a.account)).credits).toBe(1_000_000 - 2 * perRun);
    // B runs the same file: charged
    expect((await run(b, 'lines', 'b1.out')).code).toBe(0);
    expect((await show(b.account)).credits).toBe(1_000_000 - perRun);
    // A runs the other op on the same file: charged (27 per processed record)
    const s = await run(a, 'search', 'a3.out');
    expect(s.code, s.stderr).toBe(0);
    const searched = readFileSync(join(dir, 'a3.out'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l)).filter((r) => r.errorcode === undefined).length;
    expect((await show(a.account)).credits).toBe(1_000_000 - 2 * perRun - 27 * searched);
    // every ledger id names its account, function and job
    const billing = await Billing.open(db);
    try {
      const ledger = await billing.ledger(a.account, 10_000);
      const jobs = new Set(ledger.map((e) => e.id.split('/').slice(0, 3).join('/')));
      expect(jobs.size).toBe(3);
      for (const e of ledger) expect(e.id).toMatch(new RegExp(`^${a.account}/${e.function}/file:[0-9a-f-]{36}/\\d+$`));
    } finally {
      await billing.close();
    }
  }, 120_000);

  it('--resume is refused for another file, even one that differs only in the middle, and for stdin', async () => {
    const acc = await account(20 * 200);
    const original = records.slice(0, 1000);
    const path = writeInput('resume-a.ndjson', original);
    const out = join(dir, 'resume-a.out');
    const args = ['run', '--op', 'lines', '--input', path, '--output', out, '--batch-size', '50', '--progress', 'off', '--license', acc.license, '--guid', acc.guid, '--db', db];
    const first = await runCli(args);
    expect(first.code, first.stderr).toBe(3); // the balance ran out part-way
    // same size, same first and last bytes, one record in the middle changed
    const tampered = [...original];
    const line = tampered[500]!;
    const at = line.search(/[a-y]/);
    tampered[500] = line.slice(0, at) + String.fromCharCode(line.charCodeAt(at) + 1) + line.slice(at + 1);
    writeInput('resume-a.ndjson', tampered);
    const refused = await runCli([...args, '--resume']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--resume refused: .* is not the input of the job/);
    writeInput('resume-a.ndjson', original);
    const stdin = await runCli(['run', '--op', 'lines', '--input', '-', '--output', out, '--resume', '--progress', 'off']);
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toMatch(/stdin cannot be resumed/);
    await runCli(['accounts', 'topup', '--account', acc.account, '--credits', String(20 * 1000), '--db', db]);
    const resumed = await runCli([...args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
  }, 120_000);

  it('does not start with refused credentials or without the agreement', async () => {
    const bad = await runCli(['run', '--op', 'lines', '--input', input, '--license', 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA', '--guid', '00000000-0000-4000-8000-000000000000', '--db', db, '--progress', 'off']);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/did not start: 401/);
    const acc = await account(100_000, 'search');
    const noAgreement = await runCli(['run', '--op', 'lines', '--input', input, '--license', acc.license, '--guid', acc.guid, '--db', db, '--progress', 'off']);
    expect(noAgreement.code).toBe(4);
    expect(noAgreement.stderr).toMatch(/did not start: 403/);
    expect(noAgreement.stdout).toBe('');
  });
});

describe('outputs that are not regular files', () => {
  it('writes to /dev/null with checkpoints on (fsync of a device is skipped, not fatal)', async () => {
    const input = writeInput('devnull.ndjson', sample.slice(0, 3000));
    const r = await runCli(['run', '--op', 'lines', '--input', input, '--output', '/dev/null', '--checkpoint', join(dir, 'devnull.cp'), '--checkpoint-interval', '1', '--batch-size', '100', '--progress', 'off']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/finished — 3,000 records/);
  });
});
