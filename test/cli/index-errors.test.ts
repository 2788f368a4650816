/**
 * An index file that is truncated, of another format version, not an index at all, or missing:
 * `addrflow serve|run|consume --index DIR` stop at start with ONE coded line on stderr and exit
 * code EXIT_INDEX (docs/errors.md), before they open the billing store or Kafka. Real processes,
 * a real index built in the test.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexBuilder } from '../../src/data/index-builder.ts';
import { writeIndexDir } from '../../src/data/index-file.ts';
import { emptyBatch } from '../../src/data/source-types.ts';
import { INDEX_FILE_NAME, INDEX_FORMAT_VERSION } from '../../src/engine/index/format.ts';
import { EXIT_INDEX } from '../../src/contract/exit-codes.ts';
import { runCli } from '../helpers/cli.ts';

const root = mkdtempSync(join(tmpdir(), 'addrflow-index-errors-'));
const dirs: Record<string, string> = {};

function tinyIndex(): Uint8Array {
  const b = emptyBatch();
  b.places.push({ country: 'LI', name: 'Vaduz', lat: 47.141, lon: 9.521, population: 5000, type: 'town' });
  b.postcodes.push({ country: 'LI', code: '9490', place: 'Vaduz', state: 'Vaduz', stateCode: '', county: 'Oberland', lat: 47.141, lon: 9.521 });
  for (let i = 1; i <= 50; i++) b.addresses.push({ country: 'LI', street: 'Städtle', housenumber: String(i), postcode: '9490', city: 'Vaduz', district: '', lat: 47.141 + i * 1e-5, lon: 9.521 });
  const ib = new IndexBuilder();
  ib.add(b, 'test');
  return ib.build();
}

beforeAll(async () => {
  const good = join(root, 'good');
  await writeIndexDir(good, tinyIndex());
  const bytes = readFileSync(join(good, INDEX_FILE_NAME));
  const variant = (name: string, content: Uint8Array | undefined) => {
    const d = join(root, name);
    mkdirSync(d, { recursive: true });
    if (content) writeFileSync(join(d, INDEX_FILE_NAME), content);
    dirs[name] = d;
  };
  variant('truncated', bytes.subarray(0, Math.floor(bytes.length * 0.6)));
  variant('truncated-header', bytes.subarray(0, 10));
  const old = Buffer.from(bytes);
  old.writeUInt32LE(INDEX_FORMAT_VERSION - 1, 8);
  variant('old-version', old);
  variant('not-an-index', Buffer.from('{"this is":"json, not an index"}\n'));
  variant('missing', undefined);
  dirs.good = good;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const COMMANDS = {
  serve: (dir: string) => ['serve', '--port', '0', '--workers', '1', '--index', dir, '--db', `sqlite:${join(root, 'serve.sqlite')}`],
  run: (dir: string) => ['run', '--op', 'search', '--workers', '1', '--index', dir],
  // no broker behind 127.0.0.1:9 and made-up credentials: the index check comes before both
  consume: (dir: string) => ['consume', '--brokers', '127.0.0.1:9', '--group', 'g', '--input-topic', 'in', '--results-topic', 'out',
    '--ledger-topic', 'ledger', '--op', 'search', '--workers', '1', '--license', 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA', '--guid', '00000000-0000-4000-8000-000000000000',
    '--index', dir, '--db', `sqlite:${join(root, 'consume.sqlite')}`],
} as const;

const CASES = [
  ['truncated', 'ADDR_ERR_INDEX_TRUNCATED', /is truncated: \d+ bytes/],
  ['truncated-header', 'ADDR_ERR_INDEX_TRUNCATED', /is truncated: 10 bytes, shorter than the 16-byte header/],
  ['old-version', 'ADDR_ERR_INDEX_VERSION', new RegExp(`format version ${INDEX_FORMAT_VERSION - 1}; this build reads version ${INDEX_FORMAT_VERSION}: rebuild it`)],
  ['not-an-index', 'ADDR_ERR_INDEX_CORRUPT', /is not an addrflow address index/],
  ['missing', 'ADDR_ERR_INDEX_MISSING', /cannot be read \(ENOENT\)/],
] as const;

describe('an unusable --index stops serve, run and consume at start with one coded line', () => {
  for (const [cmd, args] of Object.entries(COMMANDS)) {
    for (const [variant, code, message] of CASES) {
      it(`${cmd} --index <${variant}> → ${code}, exit ${EXIT_INDEX}`, async () => {
        const r = await runCli(args(dirs[variant]!), { stdin: '{"address":"Städtle 5 9490 Vaduz"}\n' });
        const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
        expect(lines, r.stderr).toHaveLength(1);
        expect(lines[0]).toMatch(new RegExp(`^addrflow ${cmd}: ${code}: --index ${dirs[variant]}: `));
        expect(lines[0]).toMatch(message);
        expect(r.code, r.stderr).toBe(EXIT_INDEX);
        expect(r.stdout).toBe('');
      });
    }
  }

  it('the intact index is accepted (run --op search answers from it)', async () => {
    const r = await runCli([...COMMANDS.run(dirs.good!), '--progress', 'off'], { stdin: '{"address":"Städtle 5 9490 Vaduz"}\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ city: 'Vaduz' });
  });
});
