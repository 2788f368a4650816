/**
 * Every failure of every command is ONE coded line on stderr with its documented exit code, and
 * never a stack trace (docs/errors.md). One row per command and class of bad argument or
 * environment: a missing or read-only output directory, a full device (a real 64 KiB tmpfs), a
 * busy port, an unreadable or foreign index, an unreachable or refusing database, an unreadable
 * TLS file, brokers down at start, a bad number, an unknown flag or subcommand. Real processes, real mounts, a real
 * PostgreSQL (127.0.0.1:5432) refusing an unknown role.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findError } from '../../src/contract/errors.ts';
import * as X from '../../src/contract/exit-codes.ts';
import { PROJECT_ROOT } from '../../src/config/shared-data.ts';
import { runCli } from '../helpers/cli.ts';

const root = mkdtempSync(join(tmpdir(), 'addrflow-failures-'));
const LINES = join(PROJECT_ROOT, 'examples/lines.ndjson');

/** A real tmpfs (needs CAP_SYS_ADMIN): the reason it could not be mounted, or undefined. */
function mount(dir: string, opts: string): string | undefined {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', dir], { stdio: 'pipe' });
    return undefined;
  } catch (err) {
    return `cannot mount a tmpfs here (${String((err as { stderr?: Buffer }).stderr ?? err).trim().split('\n')[0]})`;
  }
}
const readOnly = join(root, 'read-only');
const full = join(root, 'full');
const small = join(root, 'small');
const noReadOnly = mount(readOnly, 'ro,size=64k');
const noFull = mount(full, 'size=64k');
if (!noFull) spawnSync('sh', ['-c', `head -c 1000000 /dev/zero > ${full}/filler`]); // fills it: ENOSPC
// room for a job's lock and checkpoint, not for its output: the device fills while the job writes
const noSmall = mount(small, 'size=64k');
for (const why of [noReadOnly, noFull, noSmall]) if (why) console.warn(`test/cli/failures.test.ts: rows needing a tmpfs are SKIPPED: ${why}`);

const foreignIndex = join(root, 'foreign-index');
const notAnIndex = join(root, 'not-an-index');
const aFile = join(root, 'a-file');
const bigInput = join(root, 'big.ndjson');
const sqlite = (name: string) => `sqlite:${join(root, `${name}.sqlite`)}`;
const unreachable = 'postgres://127.0.0.1:1/x';
const refusing = 'postgres://no_such_role_addrflow@127.0.0.1:5432/test';
const tlsMissing = `postgres://127.0.0.1:5432/test?sslmode=verify-ca&sslrootcert=${join(root, 'no-such-ca.crt')}`;
// well-formed credentials that no store knows: checks before the account come first
const LICENSE = 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA';
const GUID = '00000000-0000-4000-8000-000000000000';
const creds = ['--license', LICENSE, '--guid', GUID];

let busy: Server;
let busyPort = 0;

beforeAll(async () => {
  mkdirSync(foreignIndex);
  writeFileSync(join(foreignIndex, 'index.bin'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) & 255)));
  mkdirSync(notAnIndex);
  writeFileSync(join(notAnIndex, 'notes.txt'), 'not an index\n');
  writeFileSync(aFile, 'a file, not a directory\n');
  // far more output than the full tmpfs could hold even if it were empty
  const lines = readFileSync(LINES, 'utf8').trim().split('\n');
  writeFileSync(bigInput, Array.from({ length: 4000 }, (_, i) => lines[i % lines.length]).join('\n') + '\n');
  const created = await runCli(['accounts', 'create', '--credits', '10', '--agree', 'lines', '--db', sqlite('consume')]);
  expect(created.code, created.stderr).toBe(0);
  account = JSON.parse(created.stdout) as { license: string; guid: string };
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => busy.close(resolve));
  if (!noReadOnly) spawnSync('umount', [readOnly]);
  if (!noFull) spawnSync('umount', [full]);
  if (!noSmall) spawnSync('umount', [small]);
  rmSync(root, { recursive: true, force: true });
});

interface Row {
  /** The command as named in the line: `addrflow CMD: `. */
  cmd: string;
  what: string;
  args: () => string[];
  exit: number;
  /** The code the line carries (usage errors: ADDR_ERR_USAGE), and a pattern it matches. */
  code: string;
  line?: RegExp;
  /** Why the row cannot run here (a mount refused), said in its name. */
  skip?: string | undefined;
  /** What another branch changes about the row (not merged here). */
  note?: string;
}

/** A consume command line; `over` replaces flags' values (`--brokers`, …). */
function consumeArgs(over: Record<string, string>, ...more: string[]): string[] {
  const flags: Record<string, string> = {
    '--brokers': '127.0.0.1:9092', '--group': 'g', '--input-topic': 'in', '--results-topic': 'out', '--ledger-topic': 'ledger',
    '--op': 'lines', '--workers': '1', '--metrics-host': '127.0.0.1', '--metrics-port': '0', '--license': LICENSE, '--guid': GUID,
    '--db': sqlite('consume'), ...over,
  };
  return ['consume', ...Object.entries(flags).flat(), ...more];
}
/** A real account's credentials, for the rows that must get past the account check. */
let account: { license: string; guid: string } = { license: LICENSE, guid: GUID };
const serveArgs = (...more: string[]) => ['serve', '--port', '0', '--workers', '1', ...more];
const runArgs = (...more: string[]) => ['run', '--op', 'lines', '--input', LINES, '--workers', '1', '--progress', 'off', ...more];

const USAGE = 'ADDR_ERR_USAGE';
const ROWS: Row[] = [
  // run
  { cmd: 'run', what: 'an --output in a missing directory', args: () => runArgs('--output', join(root, 'no/such/dir/out.ndjson')), exit: X.EXIT_OUTPUT, code: 'ADDR_ERR_OUTPUT_UNWRITABLE', line: /--output .*no\/such\/dir.* does not exist/ },
  { cmd: 'run', what: 'an --output in a read-only directory', args: () => runArgs('--output', join(readOnly, 'out.ndjson')), exit: X.EXIT_OUTPUT, code: 'ADDR_ERR_OUTPUT_UNWRITABLE', line: /read-only/, skip: noReadOnly },
  { cmd: 'run', what: '--errors in a missing directory', args: () => runArgs('--output', join(root, 'e-out.ndjson'), '--errors', join(root, 'nope/errors.ndjson')), exit: X.EXIT_OUTPUT, code: 'ADDR_ERR_OUTPUT_UNWRITABLE', line: /--errors/ },
  { cmd: 'run', what: '--report in a missing directory', args: () => runArgs('--output', join(root, 'r-out.ndjson'), '--report', join(root, 'nope/r.html')), exit: X.EXIT_OUTPUT, code: 'ADDR_ERR_OUTPUT_UNWRITABLE', line: /--report/ },
  { cmd: 'run', what: 'an --output on a full device', args: () => ['run', '--op', 'lines', '--input', bigInput, '--workers', '1', '--progress', 'off', '--output', join(small, 'out.ndjson')], exit: X.EXIT_OUTPUT, code: 'ADDR_ERR_OUTPUT_UNWRITABLE', line: /ENOSPC/, skip: noSmall },
  { cmd: 'run', what: 'an --output on a device already full (its lock cannot be made)', args: () => runArgs('--output', join(full, 'out.ndjson')), exit: X.EXIT_OUTPUT, code: 'ADDR_ERR_LOCK_UNWRITABLE', line: /ENOSPC/, skip: noFull },
  { cmd: 'run', what: 'an --output that is a file\'s child', args: () => runArgs('--output', join(aFile, 'out.ndjson')), exit: X.EXIT_OUTPUT, code: 'ADDR_ERR_OUTPUT_UNWRITABLE', line: /not a directory/ },
  { cmd: 'run', what: 'a mistyped flag (--inptu)', args: () => ['run', '--op', 'lines', '--inptu', LINES], exit: X.EXIT_USAGE, code: USAGE, line: /Unknown option '--inptu': did you mean --input\?$/ },
  { cmd: 'run', what: 'a missing --input', args: () => ['run', '--op', 'lines', '--input', join(root, 'nope.ndjson')], exit: X.EXIT_INPUT, code: 'ADDR_ERR_INPUT_UNREADABLE' },
  { cmd: 'run', what: 'an --index of random bytes', args: () => ['run', '--op', 'search', '--workers', '1', '--index', foreignIndex], exit: X.EXIT_INDEX, code: 'ADDR_ERR_INDEX_CORRUPT' },
  { cmd: 'run', what: 'an --index dir that holds no index', args: () => ['run', '--op', 'search', '--workers', '1', '--index', notAnIndex], exit: X.EXIT_INDEX, code: 'ADDR_ERR_INDEX_MISSING' },
  { cmd: 'run', what: 'an unreachable database', args: () => runArgs(...creds, '--db', unreachable), exit: X.EXIT_STORE, code: 'ADDR_ERR_STORE_UNAVAILABLE', line: /ECONNREFUSED/ },
  { cmd: 'run', what: 'a database refusing the login', args: () => runArgs(...creds, '--db', refusing), exit: X.EXIT_STORE, code: 'ADDR_ERR_STORE_UNAVAILABLE', line: /no_such_role_addrflow/ },
  { cmd: 'run', what: 'an unreadable sslrootcert', args: () => runArgs(...creds, '--db', tlsMissing), exit: X.EXIT_TLS_FILE, code: 'ADDR_ERR_TLS_FILE', line: /sslrootcert .*no-such-ca\.crt.*ENOENT/ },
  { cmd: 'run', what: 'credentials no account has', args: () => runArgs(...creds, '--db', sqlite('run')), exit: X.EXIT_REFUSED, code: 'ADDR_ERR_UNAUTHORIZED' },
  { cmd: 'run', what: '--workers abc', args: () => runArgs('--workers', 'abc'), exit: X.EXIT_USAGE, code: USAGE, line: /--workers must be .*, got abc$/ },
  { cmd: 'run', what: '--op lookup', args: () => ['run', '--op', 'lookup'], exit: X.EXIT_USAGE, code: USAGE, line: /--op must be search or lines, got lookup$/ },
  { cmd: 'run', what: 'an unknown flag', args: () => runArgs('--frobnicate'), exit: X.EXIT_USAGE, code: USAGE, line: /--frobnicate/ },
  // serve
  { cmd: 'serve', what: 'a busy --port', args: () => ['serve', '--port', String(busyPort), '--workers', '1', '--db', sqlite('serve')], exit: X.EXIT_LISTEN, code: 'ADDR_ERR_LISTEN', line: /--port.*EADDRINUSE/ },
  { cmd: 'serve', what: '--port 99999', args: () => ['serve', '--port', '99999'], exit: X.EXIT_USAGE, code: USAGE, line: /--port must be a whole number from 0 to 65535, got 99999$/ },
  { cmd: 'serve', what: '--workers abc', args: () => serveArgs('--workers', 'abc'), exit: X.EXIT_USAGE, code: USAGE, line: /got abc$/ },
  { cmd: 'serve', what: 'an unknown flag', args: () => serveArgs('--frobnicate'), exit: X.EXIT_USAGE, code: USAGE, line: /--frobnicate/ },
  { cmd: 'serve', what: 'an --index of random bytes', args: () => serveArgs('--index', foreignIndex, '--db', sqlite('serve')), exit: X.EXIT_INDEX, code: 'ADDR_ERR_INDEX_CORRUPT' },
  { cmd: 'serve', what: 'an unreachable database', args: () => serveArgs('--db', unreachable), exit: X.EXIT_STORE, code: 'ADDR_ERR_STORE_UNAVAILABLE' },
  { cmd: 'serve', what: 'a database refusing the login', args: () => serveArgs('--db', refusing), exit: X.EXIT_STORE, code: 'ADDR_ERR_STORE_UNAVAILABLE' },
  { cmd: 'serve', what: 'an unreadable sslrootcert', args: () => serveArgs('--db', tlsMissing), exit: X.EXIT_TLS_FILE, code: 'ADDR_ERR_TLS_FILE' },
  { cmd: 'serve', what: 'its SQLite store on a full device', args: () => serveArgs('--db', `sqlite:${join(full, 'store.sqlite')}`), exit: X.EXIT_STORE, code: 'ADDR_ERR_STORE_FULL', skip: noFull },
  // index build
  { cmd: 'index build', what: 'an --out inside a file', args: () => ['index', 'build', '--out', join(aFile, 'idx'), '--progress', 'off'], exit: X.EXIT_OUTPUT, code: 'ADDR_ERR_OUTPUT_UNWRITABLE', line: /--out .*not a directory/ },
  { cmd: 'index build', what: 'an --out on a read-only device', args: () => ['index', 'build', '--out', join(readOnly, 'idx'), '--progress', 'off'], exit: X.EXIT_OUTPUT, code: 'ADDR_ERR_OUTPUT_UNWRITABLE', line: /read-only/, skip: noReadOnly },
  { cmd: 'index build', what: 'a missing source', args: () => ['index', 'build', '--out', join(root, 'idx'), '--bano', join(root, 'nope.csv'), '--progress', 'off'], exit: X.EXIT_INPUT, code: 'ADDR_ERR_INDEX_SOURCE_UNREADABLE' },
  { cmd: 'index build', what: 'an --osm file that is not a PBF', args: () => ['index', 'build', '--out', join(root, 'idx'), '--osm', aFile, '--progress', 'off'], exit: X.EXIT_INPUT, code: 'ADDR_ERR_INDEX_SOURCE_UNREADABLE', line: /cannot be read as osm: ADDR_ERR_OSM_PBF_BAD_FRAME: / },
  { cmd: 'index build', what: '--progress sometimes', args: () => ['index', 'build', '--out', join(root, 'idx'), '--progress', 'sometimes'], exit: X.EXIT_USAGE, code: USAGE, line: /--progress must be auto or off, got sometimes$/ },
  { cmd: 'index build', what: 'an unknown flag', args: () => ['index', 'build', '--out', join(root, 'idx'), '--frobnicate'], exit: X.EXIT_USAGE, code: USAGE, line: /--frobnicate/ },
  { cmd: 'index', what: 'an unknown subcommand', args: () => ['index', 'frobnicate'], exit: X.EXIT_USAGE, code: USAGE, line: /unknown subcommand 'frobnicate'/ },
  // accounts
  { cmd: 'accounts', what: 'an unreachable database', args: () => ['accounts', 'show', '--account', 'x', '--db', unreachable], exit: X.EXIT_STORE, code: 'ADDR_ERR_STORE_UNAVAILABLE' },
  { cmd: 'accounts', what: 'a database refusing the login', args: () => ['accounts', 'show', '--account', 'x', '--db', refusing], exit: X.EXIT_STORE, code: 'ADDR_ERR_STORE_UNAVAILABLE' },
  { cmd: 'accounts', what: 'an unreadable sslrootcert', args: () => ['accounts', 'show', '--account', 'x', '--db', tlsMissing], exit: X.EXIT_TLS_FILE, code: 'ADDR_ERR_TLS_FILE' },
  { cmd: 'accounts', what: 'no such account', args: () => ['accounts', 'show', '--account', 'nope', '--db', sqlite('accounts')], exit: X.EXIT_NO_ACCOUNT, code: 'ADDR_ERR_ACCOUNT_NOT_FOUND' },
  { cmd: 'accounts', what: '--credits abc', args: () => ['accounts', 'create', '--credits', 'abc', '--db', sqlite('accounts')], exit: X.EXIT_USAGE, code: USAGE, line: /--credits must be .*, got abc$/ },
  { cmd: 'accounts', what: 'an unknown action', args: () => ['accounts', 'frobnicate'], exit: X.EXIT_USAGE, code: USAGE, line: /got frobnicate$/ },
  { cmd: 'accounts', what: 'an unknown flag', args: () => ['accounts', 'show', '--frobnicate'], exit: X.EXIT_USAGE, code: USAGE, line: /--frobnicate/ },
  // maintenance
  { cmd: 'maintenance', what: 'an unreachable database', args: () => ['maintenance', 'status', '--db', unreachable], exit: X.EXIT_STORE, code: 'ADDR_ERR_STORE_UNAVAILABLE' },
  { cmd: 'maintenance', what: 'a database refusing the login', args: () => ['maintenance', 'status', '--db', refusing], exit: X.EXIT_STORE, code: 'ADDR_ERR_STORE_UNAVAILABLE' },
  { cmd: 'maintenance', what: 'an unreadable sslrootcert', args: () => ['maintenance', 'status', '--db', tlsMissing], exit: X.EXIT_TLS_FILE, code: 'ADDR_ERR_TLS_FILE' },
  { cmd: 'maintenance', what: 'an unknown action', args: () => ['maintenance', 'sometimes'], exit: X.EXIT_USAGE, code: USAGE, line: /got sometimes$/ },
  { cmd: 'maintenance', what: 'an unknown flag', args: () => ['maintenance', 'status', '--frobnicate'], exit: X.EXIT_USAGE, code: USAGE, line: /--frobnicate/ },
  // consume
  { cmd: 'consume', what: 'a busy --metrics-port', args: () => consumeArgs({ '--metrics-port': String(busyPort) }), exit: X.EXIT_LISTEN, code: 'ADDR_ERR_LISTEN', line: /--metrics-port.*EADDRINUSE/ },
  { cmd: 'consume', what: '--metrics-port 99999', args: () => consumeArgs({ '--metrics-port': '99999' }), exit: X.EXIT_USAGE, code: USAGE, line: /got 99999$/ },
  { cmd: 'consume', what: '--workers abc', args: () => consumeArgs({ '--workers': 'abc' }), exit: X.EXIT_USAGE, code: USAGE, line: /got abc$/ },
  { cmd: 'consume', what: '--value-format xml', args: () => consumeArgs({ '--value-format': 'xml' }), exit: X.EXIT_USAGE, code: USAGE, line: /--value-format must be avro or json, got xml$/ },
  { cmd: 'consume', what: 'credentials no account has', args: () => consumeArgs({}), exit: X.EXIT_REFUSED, code: 'ADDR_ERR_UNAUTHORIZED' },
  { cmd: 'consume', what: 'an unknown flag', args: () => consumeArgs({}, '--frobnicate'), exit: X.EXIT_USAGE, code: USAGE, line: /--frobnicate/ },
  { cmd: 'consume', what: 'an --index of random bytes', args: () => consumeArgs({ '--index': foreignIndex, '--op': 'search' }), exit: X.EXIT_INDEX, code: 'ADDR_ERR_INDEX_CORRUPT' },
  { cmd: 'consume', what: 'an unreachable database', args: () => consumeArgs({ '--db': unreachable }), exit: X.EXIT_STORE, code: 'ADDR_ERR_STORE_UNAVAILABLE' },
  { cmd: 'consume', what: 'an unreadable sslrootcert', args: () => consumeArgs({ '--db': tlsMissing }), exit: X.EXIT_TLS_FILE, code: 'ADDR_ERR_TLS_FILE' },
  {
    cmd: 'consume', what: 'an unreadable --tls-ca', args: () => consumeArgs({ '--tls-ca': join(root, 'no-such-ca.pem') }),
    exit: X.EXIT_TLS_FILE, code: 'ADDR_ERR_TLS_FILE', line: /no-such-ca\.pem/,
  },
  {
    cmd: 'consume', what: 'the brokers down at start (--brokers 127.0.0.1:1)',
    args: () => consumeArgs({ '--brokers': '127.0.0.1:1', '--license': account.license, '--guid': account.guid }),
    exit: X.EXIT_KAFKA, code: 'ADDR_ERR_KAFKA_UNREACHABLE', line: /127\.0\.0\.1:1/,
    note: 'waits the 30 s start bound first',
  },
  // topics (the Kafka topics of consume)
  { cmd: 'topics', what: 'an unknown action', args: () => ['topics', 'frobnicate'], exit: X.EXIT_USAGE, code: USAGE, line: /the action must be create or check, got frobnicate$/ },
  { cmd: 'topics', what: 'an unreadable --tls-ca', args: () => ['topics', 'check', '--brokers', '127.0.0.1:9092', '--input-topic', 'in', '--results-topic', 'out', '--ledger-topic', 'ledger', '--tls-ca', join(root, 'no-such-ca.pem')], exit: X.EXIT_TLS_FILE, code: 'ADDR_ERR_TLS_FILE', line: /no-such-ca\.pem/ },
];

describe.concurrent('every failure of every command is one coded line, its exit code and no stack trace', () => {
  for (const row of ROWS) {
    const name = `addrflow ${row.cmd}: ${row.what} → exit ${row.exit}, ${row.code}${row.note ? ` [${row.note}]` : ''}${row.skip ? ` — SKIPPED: ${row.skip}` : ''}`;
    it.skipIf(Boolean(row.skip))(name, { timeout: 180_000 }, async () => {
      const r = await runCli(row.args(), { env: { ADDRFLOW_DEBUG: '' } });
      const lines = r.stderr.trimEnd().split('\n');
      expect(r.code, r.stderr).toBe(row.exit);
      expect(r.stderr, 'no stack trace').not.toMatch(/^ {4}at /m);
      expect(r.stderr).not.toMatch(/node:internal|Uncaught/);
      const line = lines[0]!;
      expect(line.startsWith(`addrflow ${row.cmd}: ${row.code}: `), line).toBe(true);
      expect(findError(row.code)?.exit ?? findError(row.code)?.status, `${row.code} is in the registry`).toBeDefined();
      if (row.line) expect(line).toMatch(row.line);
      if (row.code === USAGE) {
        expect(lines[1], 'a blank line, then the usage').toBe('');
        expect(lines[2]).toMatch(/^usage: addrflow /);
      } else {
        expect(lines, r.stderr).toHaveLength(1);
      }
    });
  }
});

describe('the command line describes itself', () => {
  it('--version, -V and version print the package version and the Node version', async () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V', 'version']) {
      const r = await runCli([flag]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`addrflow ${pkg.version} (node ${process.version})\n`);
    }
  });
  it('--help has one line per command; help COMMAND prints its usage; an unknown command is a usage error', async () => {
    const h = await runCli(['--help']);
    expect(h.code).toBe(0);
    for (const c of ['run', 'index', 'serve', 'accounts', 'maintenance', 'consume', 'topics']) expect(h.stdout).toMatch(new RegExp(`^  ${c} +\\S.{10,}$`, 'm'));
    const u = await runCli(['help', 'maintenance']);
    expect(u.code).toBe(0);
    expect(u.stdout).toMatch(/^usage: addrflow maintenance on\|off\|status/);
    const bad = await runCli(['frobnicate']);
    expect(bad.code).toBe(X.EXIT_USAGE);
    expect(bad.stderr).toMatch(/^addrflow: ADDR_ERR_USAGE: unknown command 'frobnicate'\n\nusage: addrflow <command>/);
  });
});
