/** Runs the real `addrflow` binary in a child process (Node 24 from node_modules). */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/addrflow.ts', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function startCli(args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn', ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
  else child.stdin!.end();
  const done = new Promise<CliResult>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export function runCli(args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return startCli(args, opts).done;
}

export interface ServeProcess {
  child: ChildProcess;
  /** The base URL it listens on (from its `{"listening":…}` line). */
  url: string;
  /** Its stderr so far (the log). */
  stderr: () => string;
  /** Resolves when the process has exited (at once if it already has). */
  exited: () => Promise<void>;
}

/**
 * `addrflow serve --port 0 ARGS` as a real child process; resolves once it listens, rejects if it
 * exits first. The caller kills it.
 */
export function startServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn', ...env },
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /\{"listening":"([^"]+)"\}/.exec(out);
      if (m) resolve({ child, url: m[1]!, stderr: () => stderr, exited: () => gone });
    });
    child.once('exit', (code, signal) => reject(new Error(`serve exited ${code ?? signal}: ${stderr}`)));
  });
}
