/**
 * What a subcommand is, and the usage error it throws. Its own module so that the commands need
 * not import src/cli/main.ts, which loads them (no import circle).
 */

export interface Command {
  /** Usage text printed on `addrflow CMD --help`, `addrflow help CMD` or a usage error. */
  usage: string;
  /** Runs the command; resolves to the process exit code. */
  run(argv: string[]): Promise<number>;
}

/** A bad command line: one line naming the flag and what it got, then the usage; exit code 2. */
export class UsageError extends Error {}
