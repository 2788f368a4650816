/**
 * File jobs under faults, with real processes, real signals and real devices: an output device
 * that fills up (/dev/full, and a real 1 MiB tmpfs that is then grown for --resume), a pipe
 * whose reader goes away, kill -9 before the first interval checkpoint, an input that cannot be
 * read, and JSON arrays with empty elements.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateLines } from '../../../scripts/generate-requests.ts';
import { BIN, runCli, startCli } from '../../helpers/cli.ts';
import { readJsonArrayBatches } from '../../../src/adapters/file/json-array-reader.ts';
import { EXIT_INPUT, EXIT_OUTPUT, EXIT_UNREADABLE_ROWS } from '../../../src/contract/exit-codes.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-faults-'));
const small = join(dir, 'small-fs');
mkdirSync(small);

/** A real small filesystem (tmpfs) needs CAP_SYS_ADMIN; without it that test skips with the reason. */
function mountSmall(): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', small], { stdio: 'pipe' });
    return undefined;
  } catch (err) {
    return `cannot mount a 1 MiB tmpfs here (${String((err as { stderr?: Buffer }).stderr ?? err).trim().split('\n')[0]})`;
  }
}
const noSmallFs = mountSmall();

afterAll(() => {
  if (!noSmallFs) spawnSync('umount', [small]);
  rmSync(dir, { recursive: true, force: true });
});

const records = [...generateLines(60_000, 13, 0)];
const inputPath = join(dir, 'in.ndjson');
let reference: string;

beforeAll(async () => {
  writeFileSync(inputPath, records.join('\n') + '\n');
  const ref = join(dir, 'ref.out');
  const r = await runCli(['run', '--op', 'lines', '--input', inputPath, '--output', ref, '--progress', 'off']);
  expect(r.code, r.stderr).toBe(0);
  reference = readFileSync(ref, 'utf8');
  expect(reference.length).toBeGreaterThan(4 << 20); // far more than the small filesystem holds
}, 120_000);

/** stderr of a failed job: the one line addrflow wrote, and no stack trace. */
function expectOneClearLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toMatch(/Uncaught|node:internal/);
}

describe('an output that cannot take more bytes', () => {
  it('/dev/full: a clear line, exit 7, and the checkpoint written before the first record is intact', async () => {
    const cp = join(dir, 'devfull.cp');
    const r = await runCli(['run', '--op', 'lines', '--input', inputPath, '--output', '/dev/full', '--checkpoint', cp, '--progress', 'off']);
    expect(r.code).toBe(EXIT_OUTPUT);
    expectOneClearLine(r.stderr, /^addrflow run: ADDR_ERR_OUTPUT_UNWRITABLE: STOPPED — cannot write \/dev\/full: no space left on the device \(ENOSPC\)\. .*--resume/);
    const checkpoint = JSON.parse(readFileSync(cp, 'utf8'));
    expect(checkpoint.recordsDone).toBe(0);
    expect(checkpoint.outputBytes).toBe(0);
  });

  it.skipIf(noSmallFs !== undefined)(`a full 1 MiB filesystem: exit 7; after it is grown, --resume finishes byte-identically${noSmallFs ? ` — SKIPPED: ${noSmallFs}` : ''}`, async () => {
    const out = join(small, 'out.ndjson');
    const args = ['run', '--op', 'lines', '--input', inputPath, '--output', out, '--batch-size', '500', '--checkpoint-interval', '20', '--progress', 'off'];
    const first = await runCli(args);
    expect(first.code, first.stderr).toBe(EXIT_OUTPUT);
    expectOneClearLine(first.stderr, /cannot write .*: no space left on the device \(ENOSPC\)\. Free space .* --resume/);
    const checkpoint = JSON.parse(readFileSync(`${out}.checkpoint`, 'utf8'));
    expect(checkpoint.outputBytes).toBeLessThanOrEqual(statSync(out).size);
    expect(reference.startsWith(readFileSync(out, 'utf8').slice(0, checkpoint.outputBytes))).toBe(true);
    execFileSync('mount', ['-o', 'remount,size=64m', small]);
    const second = await runCli([...args, '--resume']);
    expect(second.code, second.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(reference);
    expect(existsSync(`${out}.checkpoint`)).toBe(false);
  }, 120_000);

  it('a pipe whose reader goes away (| head -1): a clear line, exit 7, no uncaught exception', () => {
    const errFile = join(dir, 'pipe.err');
    const codeFile = join(dir, 'pipe.code');
    const headFile = join(dir, 'pipe.head');
    const script = `"${process.execPath}" "${BIN}" run --op lines --input "${inputPath}" --progress off 2>"${errFile}" | head -1 >"${headFile}"; echo \${PIPESTATUS[0]} >"${codeFile}"`;
    const r = spawnSync('bash', ['-c', script], { env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn' }, timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(readFileSync(headFile, 'utf8')).toBe(reference.slice(0, reference.indexOf('\n') + 1));
    expect(Number(readFileSync(codeFile, 'utf8'))).toBe(EXIT_OUTPUT);
    expectOneClearLine(readFileSync(errFile, 'utf8'), /^addrflow run: ADDR_ERR_OUTPUT_UNWRITABLE: STOPPED — cannot write stdout: the reading end of the pipe was closed \(EPIPE\)\.$/);
  });
});

describe('kill -9 before the first interval checkpoint', () => {
  async function killEarly(name: string): Promise<{ out: string; args: string[] }> {
    const out = join(dir, `${name}.out`);
    // No interval checkpoint for ten minutes: only the one written before the first record.
    const args = ['run', '--op', 'lines', '--input', inputPath, '--output', out, '--batch-size', '200', '--checkpoint-interval', '600000', '--progress', 'off'];
    const { child, done } = startCli(args);
    const started = Date.now();
    while ((!existsSync(out) || statSync(out).size < 100_000) && Date.now() - started < 60_000) await sleep(5);
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    const partial = statSync(out).size;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(reference.length);
    return { out, args };
  }

  it('--resume continues from the checkpoint written before the first record: output identical', async () => {
    const { out, args } = await killEarly('early');
    const checkpoint = JSON.parse(readFileSync(`${out}.checkpoint`, 'utf8'));
    expect(checkpoint.recordsDone).toBe(0);
    const second = await runCli([...args, '--resume']);
    expect(second.code, second.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(reference);
  }, 120_000);

  it('--resume with no checkpoint at all (a partial output, nothing claimed) starts over and says so', async () => {
    const { out, args } = await killEarly('nocheckpoint');
    rmSync(`${out}.checkpoint`);
    const second = await runCli([...args, '--resume']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/no checkpoint at .*; the job starts over from the first record/);
    expect(readFileSync(out, 'utf8')).toBe(reference);
  }, 120_000);
});

describe('an input that cannot be read', () => {
  it('a missing --input: one line, exit 8, no stack trace', async () => {
    const r = await runCli(['run', '--op', 'lines', '--input', join(dir, 'nope.ndjson'), '--output', join(dir, 'nope.out'), '--progress', 'off']);
    expect(r.code).toBe(EXIT_INPUT);
    expectOneClearLine(r.stderr, /^addrflow run: ADDR_ERR_INPUT_UNREADABLE: cannot read --input .*nope\.ndjson: no such file \(ENOENT\)$/);
    expect(existsSync(join(dir, 'nope.out'))).toBe(false); // no output was created
  });

  it('a directory as --input: one line, exit 8', async () => {
    const r = await runCli(['run', '--op', 'lines', '--input', dir, '--progress', 'off']);
    expect(r.code).toBe(EXIT_INPUT);
    expectOneClearLine(r.stderr, /^addrflow run: ADDR_ERR_INPUT_UNREADABLE: cannot read --input .*: it is a directory$/);
  });

  it('a file without read permission: one line, exit 8', () => {
    const path = join(dir, 'locked.ndjson');
    writeFileSync(path, records[0]! + '\n');
    chmodSync(path, 0o000);
    chmodSync(dir, 0o755);
    // root reads any file: run the job as 'nobody' then, so that the permission is really refused.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const r = spawnSync(process.execPath, [BIN, 'run', '--op', 'lines', '--input', path, '--progress', 'off'], {
      ...asNobody, encoding: 'utf8', env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn' }, timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(EXIT_INPUT);
    expectOneClearLine(r.stderr, /^addrflow run: ADDR_ERR_INPUT_UNREADABLE: cannot read --input .*: permission denied \(EACCES\)$/);
  });
});

describe('JSON arrays with empty elements', () => {
  async function* bytes(text: string): AsyncGenerator<Uint8Array> {
    yield Buffer.from(text);
  }
  async function slots(text: string): Promise<Array<[number, string]>> {
    const out: Array<[number, string]> = [];
    for await (const b of readJsonArrayBatches(bytes(text), 100)) {
      const errs = new Map(b.readerErrors ?? []);
      b.positions.forEach((p, i) => out.push([p, errs.get(i) ?? Buffer.from(b.bytes.subarray(b.bounds[2 * i], b.bounds[2 * i + 1])).toString()]));
    }
    return out;
  }

  it('gives an empty element an error in its own slot, so the numbering never shifts', async () => {
    expect(await slots('[{"a":1},,{"b":2}]')).toEqual([[1, '{"a":1}'], [2, 'Element 2: empty (nothing between two commas).'], [3, '{"b":2}']]);
    expect(await slots('[{"a":1}, ]')).toEqual([[1, '{"a":1}'], [2, 'Element 2: empty (nothing after the last comma).']]);
    expect(await slots('[ ,{"a":1}]')).toEqual([[1, 'Element 1: empty (nothing before the first comma).'], [2, '{"a":1}']]);
    expect(await slots('[ \n ]')).toEqual([]);
    expect(await slots('[{"a":1},')).toEqual([[1, '{"a":1}'], [2, "Element 2: the input ended before the array's closing ]."]]);
  });

  it('in a job: [a,,b,bad] and [a,] keep every element in its slot with its own number', async () => {
    const [a, b] = records;
    const path = join(dir, 'holes.json');
    writeFileSync(path, `[${a},,${b},{bad}]`);
    const r = await runCli(['run', '--op', 'lines', '--input', path, '--progress', 'off']);
    // [unreadable] an empty element and one that is not JSON: exit 9, naming both
    expect(r.code, r.stderr).toBe(EXIT_UNREADABLE_ROWS);
    expect(r.stderr).toMatch(/ADDR_ERR_ROWS_UNREADABLE: 2 elements unreadable \(element 2, element 4\)/);
    const out = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(4);
    expect(out[0].id).toBe(JSON.parse(a!).id);
    expect(out[1]).toEqual({ errorcode: 412, errormessage: 'Element 2: empty (nothing between two commas).' });
    expect(out[2].id).toBe(JSON.parse(b!).id);
    expect(out[3]).toEqual({ errorcode: 412, errormessage: expect.stringMatching(/^Element 4: not valid JSON/) });
    writeFileSync(path, `[${a},]`);
    const trailing = await runCli(['run', '--op', 'lines', '--input', path, '--progress', 'off']);
    expect(trailing.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))[1]).toEqual({ errorcode: 412, errormessage: 'Element 2: empty (nothing after the last comma).' });
  });
});
