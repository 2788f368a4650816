/**
 * The `addrflow` command line: a table of subcommands, each a thin module under ./commands.
 * Adding a subcommand is one entry here. Every failure of a command ends here as one coded line
 * on stderr and its exit code (./fault.ts, docs/errors.md), never a stack trace.
 */
import { readFileSync } from 'node:fs';
import { START_ERRORS } from '../contract/errors.ts';
import { EXIT_USAGE } from '../contract/exit-codes.ts';
import type { Command } from './command.ts';
import { debugStack, faultOf } from './fault.ts';
import { withSuggestion } from './suggest-option.ts';

interface Entry {
  /** One line for `addrflow --help` (here, not in the module: help must not load every command). */
  summary: string;
  load: () => Promise<Command>;
}

const COMMANDS: Record<string, Entry> = {
  run: { summary: 'run a file job (NDJSON, a JSON array or CSV/TSV in, plain or gzip)', load: async () => (await import('./commands/run.ts')).default },
  index: { summary: 'index build: build an address index from OSM PBF, BAN, BANO, OpenAddresses and GeoNames files', load: async () => (await import('./commands/index-build.ts')).default },
  serve: { summary: 'run the HTTP service (POST /address/search, POST /address/lines)', load: async () => (await import('./commands/serve.ts')).default },
  accounts: { summary: 'create and manage accounts (credits, agreements, disabling)', load: async () => (await import('./commands/accounts.ts')).default },
  maintenance: { summary: 'switch maintenance mode (503 on both endpoints) on or off', load: async () => (await import('./commands/maintenance.ts')).default },
  consume: { summary: 'run the Kafka stream worker (requests topic → results and ledger topics, exactly once)', load: async () => (await import('./commands/consume.ts')).default },
  topics: { summary: "create or check the Kafka topics of 'consume' (input, results, ledger, DLQ) with exactly-once settings", load: async () => (await import('./commands/topics.ts')).default },
};

/** The package version and the Node running it: `addrflow 0.3.0 (node v24.x)`. */
export function versionLine(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return `addrflow ${pkg.version} (node ${process.version})`;
}

function help(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length));
  return [
    'usage: addrflow <command> [options]',
    '',
    'commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n]!.summary}`),
    '',
    "'addrflow help <command>' or 'addrflow <command> --help': a command's options.",
    "'addrflow --version': the version. Exit codes and error codes: docs/errors.md.",
  ].join('\n');
}

/** The command whose failure a last-resort handler reports (bin/addrflow.ts). */
let current = '';

/** `addrflow CMD: CODE: message` for an error that escaped everything else; the exit code. */
export function reportUncaught(err: unknown): number {
  const fault = faultOf(err);
  process.stderr.write(`addrflow${current ? ` ${current}` : ''}: ${fault.line}\n`);
  const stack = debugStack(err);
  if (stack) process.stderr.write(stack + '\n');
  return fault.exit;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(versionLine() + '\n');
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    process.stdout.write(help() + '\n');
    return name ? 0 : EXIT_USAGE;
  }
  if (name === 'help') {
    const load = COMMANDS[rest[0]!]?.load;
    if (!load) return unknownCommand(rest[0]!);
    process.stdout.write((await load()).usage + '\n');
    return 0;
  }
  const load = COMMANDS[name]?.load;
  if (!load) return unknownCommand(name);
  current = name === 'index' && rest[0] === 'build' ? 'index build' : name;
  const cmd = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(cmd.usage + '\n');
    return 0;
  }
  try {
    return await cmd.run(rest);
  } catch (err) {
    const fault = faultOf(err);
    const line = fault.usage ? withSuggestion(fault.line, cmd.usage) : fault.line;
    process.stderr.write(`addrflow ${current}: ${line}\n${fault.usage ? `\n${cmd.usage}\n` : ''}`);
    const stack = debugStack(err);
    if (stack) process.stderr.write(stack + '\n');
    return fault.exit;
  }
}

function unknownCommand(name: string): number {
  process.stderr.write(`addrflow: ${START_ERRORS.USAGE.code}: unknown command '${name}'\n\n${help()}\n`);
  return START_ERRORS.USAGE.exit;
}
