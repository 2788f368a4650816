/**
 * A PostgreSQL cluster of a test's own (initdb + pg_ctl from /usr/lib/postgresql/<newest>/bin or
 * PATH), on a free port with its data under /tmp: for tests that stop, kill or reconfigure the
 * server. The shared cluster on 5432 is never touched.
 *
 * As root (CI) the server binaries run as the `postgres` user (PostgreSQL refuses root).
 * When the binaries are absent the suites skip with PG_CLUSTER_SKIP_REASON in their title, unless
 * ADDRFLOW_REQUIRE_POSTGRES=1 (CI), where they fail instead.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(a) - Number(b));
    if (versions.length) return join(root, versions.at(-1)!, 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  const p = which.stdout.trim();
  return p ? p.replace(/\/pg_ctl$/, '') : undefined;
}

export const PG_BIN = findBinDir();
const IS_ROOT = process.getuid?.() === 0;
const RUN_AS = IS_ROOT ? uidOf('postgres') : undefined;

function uidOf(user: string): { uid: number; gid: number } | undefined {
  const r = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', user], { encoding: 'utf8' });
  return r.status === 0 && g.status === 0 ? { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) } : undefined;
}

/** Why a cluster cannot be started here, or undefined when it can. */
export const PG_CLUSTER_SKIP_REASON: string | undefined = !PG_BIN
  ? 'PostgreSQL server binaries (initdb, pg_ctl) not found under /usr/lib/postgresql/*/bin or on PATH'
  : IS_ROOT && !RUN_AS ? "running as root but there is no 'postgres' user to run the server as" : undefined;

/** Skip (loudly, with the reason) only where the binaries are absent, and never in CI. */
export const PG_CLUSTER_AVAILABLE = PG_CLUSTER_SKIP_REASON === undefined || process.env.ADDRFLOW_REQUIRE_POSTGRES === '1';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface ClusterOptions {
  /** Enables TLS: files copied into the data directory (PEM). */
  ssl?: { cert: string; key: string };
  /** With ssl: refuse plain connections (pg_hba `hostnossl … reject`). */
  sslOnly?: boolean;
  /** Loopback addresses to listen on (default ['127.0.0.1']; 127.0.0.2 is a second name for TLS host checks). */
  listen?: string[];
}

export class PgCluster {
  readonly dir: string;
  readonly port: number;
  private readonly logFile: string;

  private constructor(dir: string, port: number) {
    this.dir = dir;
    this.port = port;
    this.logFile = join(dir, 'server.log');
  }

  /** `postgres://postgres@HOST:PORT/postgres` (HOST default 127.0.0.1) plus the given query parameters. */
  url(params: Record<string, string> = {}, host = '127.0.0.1'): string {
    const u = new URL(`postgres://postgres@${host}:${this.port}/postgres`);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.toString();
  }

  private static run(bin: string, args: string[]): string {
    if (!PG_BIN) throw new Error(PG_CLUSTER_SKIP_REASON);
    return execFileSync(join(PG_BIN, bin), args, {
      encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: '/tmp',
      ...(RUN_AS ? { uid: RUN_AS.uid, gid: RUN_AS.gid } : {}),
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
  }

  static async create(opts: ClusterOptions = {}): Promise<PgCluster> {
    if (PG_CLUSTER_SKIP_REASON) throw new Error(PG_CLUSTER_SKIP_REASON);
    const base = mkdtempSync('/tmp/addrflow-pgcluster-');
    chmodSync(base, 0o755);
    const dir = join(base, 'data');
    if (RUN_AS) chownSync(base, RUN_AS.uid, RUN_AS.gid);
    const c = new PgCluster(dir, await freePort());
    PgCluster.run('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--no-instructions']);
    const conf = [
      `port = ${c.port}`,
      `listen_addresses = '${(opts.listen ?? ['127.0.0.1']).join(',')}'`,
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'max_connections = 40',
      'shared_buffers = 16MB',
    ];
    if (opts.ssl) {
      for (const [name, pem] of [['server.crt', opts.ssl.cert], ['server.key', opts.ssl.key]] as const) {
        const p = join(dir, name);
        writeFileSync(p, readFileSync(pem));
        chmodSync(p, 0o600);
        if (RUN_AS) chownSync(p, RUN_AS.uid, RUN_AS.gid);
      }
      conf.push('ssl = on', `ssl_cert_file = 'server.crt'`, `ssl_key_file = 'server.key'`);
    }
    writeFileSync(join(dir, 'postgresql.auto.conf'), conf.join('\n') + '\n');
    const hba = opts.ssl && opts.sslOnly
      ? ['hostssl all all 127.0.0.0/8 trust', 'hostnossl all all 127.0.0.0/8 reject']
      : ['host all all 127.0.0.0/8 trust'];
    writeFileSync(join(dir, 'pg_hba.conf'), ['local all all trust', ...hba].join('\n') + '\n');
    if (RUN_AS) for (const f of ['postgresql.auto.conf', 'pg_hba.conf']) chownSync(join(dir, f), RUN_AS.uid, RUN_AS.gid);
    await c.start();
    return c;
  }

  /** Starts the server and waits until it accepts connections (retries while a killed one's backends linger). */
  async start(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        PgCluster.run('pg_ctl', ['-D', this.dir, '-l', this.logFile, '-w', '-t', '20', '-o', `-p ${this.port}`, 'start']);
        return;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`pg_ctl start failed: ${(err as { stderr?: string }).stderr ?? (err as Error).message}\n${this.log().slice(-2000)}`);
        await sleep(300);
      }
    }
  }

  /** pg_ctl stop (-m immediate: every backend is cut at once, no checkpoint). */
  stop(mode: 'immediate' | 'fast' = 'immediate'): void {
    PgCluster.run('pg_ctl', ['-D', this.dir, '-m', mode, '-w', 'stop']);
  }

  /** SIGKILL to the postmaster (its backends notice and exit by themselves). */
  kill9(): void {
    const pid = Number(readFileSync(join(this.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
  }

  /**
   * A crash of the whole server: SIGKILL to the postmaster and every process it forked (backends,
   * checkpointer, WAL writer, …) at once, as `kill -9` of all of them would. The postmaster is
   * stopped first so that it forks nothing between the listing and the kill. The next start runs
   * crash recovery.
   */
  crash(): void {
    const pm = this.processes()[0]!;
    process.kill(pm, 'SIGSTOP');
    for (const pid of this.processes().slice(1)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // exited meanwhile
      }
    }
    process.kill(pm, 'SIGKILL');
  }

  /** The postmaster and every process it forked (backends, checkpointer, …). */
  private processes(): number[] {
    const pm = Number(readFileSync(join(this.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const pids = [pm];
    for (const e of readdirSync('/proc')) {
      if (!/^\d+$/.test(e)) continue;
      try {
        const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid === pm) pids.push(Number(e));
      } catch {
        // exited meanwhile
      }
    }
    return pids;
  }

  /**
   * SIGSTOP to the server and all its processes: a server that answers nothing (as behind a
   * network partition). New TCP connections still complete in the kernel's backlog, then hang.
   */
  freeze(): void {
    for (const pid of this.processes()) process.kill(pid, 'SIGSTOP');
  }

  /** SIGCONT: the frozen server carries on. */
  thaw(): void {
    for (const pid of this.processes()) process.kill(pid, 'SIGCONT');
  }

  log(): string {
    try {
      return readFileSync(this.logFile, 'utf8');
    } catch {
      return '';
    }
  }

  /**
   * Stops the server (if running) and deletes the data directory. A frozen server (freeze) is
   * thawed first, and one that does not stop is killed, so that no test leaves a server behind.
   */
  async destroy(): Promise<void> {
    let pids: number[] = [];
    try {
      pids = this.processes();
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    } catch {
      // not running
    }
    try {
      PgCluster.run('pg_ctl', ['-D', this.dir, '-m', 'immediate', '-w', '-t', '20', 'stop']);
    } catch {
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
    rmSync(join(this.dir, '..'), { recursive: true, force: true });
  }
}
