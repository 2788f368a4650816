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
