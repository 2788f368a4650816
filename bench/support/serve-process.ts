/**
 * `addrflow serve` (or any server that prints `{"listening":"URL"}`) as a child process for the
 * benches and tools: started, its URL once it listens, stopped by SIGTERM; and the unlimited
 * account they charge.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

export interface Served {
  child: ChildProcess;
  url: string;
}

/**
 * Runs `node ARGS` (a script, e.g. `bin/addrflow.ts serve …`) at log level warn; resolves with its
 * URL once it listens, rejects if it exits first. `stderr: 'inherit'` shows its warnings as they
 * come; piped (the default), they go into the error of a server that exited.
 */
export function startServer(args: string[], opts: { stderr?: 'pipe' | 'inherit' } = {}): Promise<Served> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', opts.stderr ?? 'pipe'], env: { ...process.env, ADDRFLOW_LOG_LEVEL: 'warn' } });
  let err = '';
  child.stderr?.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /\{"listening":"([^"]+)"\}/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

/** SIGTERM, and its exit awaited (at once if it has exited). */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

/** `addrflow accounts create --unlimited --agree search,lines` on `db` with the checkout's `bin`. */
export function createUnlimitedAccount(bin: string, db: string): { license: string; guid: string } {
  const r = spawnSync(process.execPath, [bin, 'accounts', 'create', '--unlimited', '--agree', 'search,lines', '--db', db], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { license: string; guid: string };
}
