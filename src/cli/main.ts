/**
 * The `addrflow` command line: a table of subcommands, each a thin module under ./commands.
 * Adding a subcommand is one entry here.
 */
import { StartError } from '../contract/errors.ts';
import { StoreUnavailableError } from '../billing/store.ts';
import { EXIT_STORE } from '../contract/exit-codes.ts';

export interface Command {
  /** One line for `addrflow help`. */
  summary: string;
  /** Usage text printed on `addrflow CMD --help` or a usage error. */
  usage: string;
  /** Runs the command; resolves to the process exit code. */
  run(argv: string[]): Promise<number>;
}

type Loader = () => Promise<Command>;

const COMMANDS: Record<string, Loader> = {
  run: async () => (await import('./commands/run.ts')).default,
  index: async () => (await import('./commands/index-build.ts')).default,
  serve: async () => (await import('./commands/serve.ts')).default,
  accounts: async () => (await import('./commands/accounts.ts')).default,
  maintenance: async () => (await import('./commands/maintenance.ts')).default,
  consume: async () => (await import('./commands/consume.ts')).default,
  topics: async () => (await import('./commands/topics.ts')).default,
};

export class UsageError extends Error {}

/**
 * A fault at start that the operator must fix, as one line and its exit code (docs/errors.md):
 * an unusable index, an unreachable or misconfigured billing store. Undefined for anything else.
 */
function startFault(err: unknown): { line: string; exit: number } | undefined {
  if (err instanceof StartError) return { line: `${err.code}: ${err.message}`, exit: err.exit };
  if (err instanceof StoreUnavailableError) {
    const c = err.cause instanceof Error ? err.cause as Error & { code?: unknown } : undefined;
    const msg = c ? c.message.split('\n')[0]! : '';
    const cause = c && typeof c.code === 'string' && !msg.includes(c.code) ? `${msg} (${c.code})` : msg;
    return { line: `${err.name}: the billing store cannot be reached${cause ? `: ${cause}` : ''}`, exit: EXIT_STORE };
  }
  return undefined;
}

function help(): string {
  return [
    'usage: addrflow <command> [options]',
    '',
    'commands:',
    ...Object.keys(COMMANDS).map((c) => `  ${c}`),
    '',
    "Run 'addrflow <command> --help' for a command's options.",
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(help() + '\n');
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`addrflow: unknown command '${name}'\n\n${help()}\n`);
    return 2;
  }
  const cmd = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(cmd.usage + '\n');
    return 0;
  }
  try {
    return await cmd.run(rest);
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`addrflow ${name}: ${(err as Error).message}\n\n${cmd.usage}\n`);
      return 2;
    }
    const fault = startFault(err);
    if (fault) {
      process.stderr.write(`addrflow ${name}: ${fault.line}\n`);
      return fault.exit;
    }
    throw err;
  }
}
