/**
 * A Kafka broker of the test's OWN (another port, another state dir), for tests that kill, stop
 * or reconfigure a broker: the run's shared broker (./kafka-broker.ts) is never touched.
 * Started and stopped through scripts/kafka-start.sh / kafka-stop.sh (the same Maven-jar broker),
 * optionally with secured listeners (SASL_PLAINTEXT, SSL with client certificates, SASL_SSL).
 *
 *   const b = await startOwnBroker({ name: 'faults' });   // b.brokers = ['127.0.0.1:<port>']
 *   await b.kill9(); await b.start();                    // same data: topics, offsets, transactions
 *   await b.stop();
 *
 * `ownBrokerUnavailable()` says why none can be started (no java / no classpath): suites skip
 * loudly with it, or fail under ADDRFLOW_REQUIRE_KAFKA=1.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const exec = promisify(execFile);

export interface OwnBrokerOptions {
  /** Used in the state dir's name. */
  name: string;
  /** Adds a SASL_PLAINTEXT listener (and SASL_SSL with `ssl`) with these user → password pairs (PLAIN + SCRAM-SHA-256/512). */
  saslUsers?: Record<string, string>;
  /** Adds an SSL listener (client certificate required); the dir holds ca.pem and broker.pem (see ./tls-certs.ts). */
  sslDir?: string;
}

export interface OwnBroker {
  /** PLAINTEXT listener. */
  brokers: string[];
  sasl?: string[];
  ssl?: string[];
  saslSsl?: string[];
  stateDir: string;
  pid(): number | undefined;
  /** Starts the broker again on its existing data (after kill9 or stop({ keepData: true })). */
  start(): Promise<void>;
  /** SIGKILL, waits until the process is gone. */
  kill9(): Promise<void>;
  /** Clean stop; removes the state dir unless keepData. */
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Why an own broker cannot be started here, or undefined when it can. */
export function ownBrokerUnavailable(): string | undefined {
  if (spawnSync('java', ['-version'], { stdio: 'ignore' }).status !== 0) return 'no java on PATH';
  const cp = join(ROOT, '.kafka', 'classpath.txt');
  if (!existsSync(cp) && spawnSync('mvn', ['-v'], { stdio: 'ignore' }).status !== 0) return 'no Kafka classpath cache and no mvn';
  return undefined;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startOwnBroker(opts: OwnBrokerOptions): Promise<OwnBroker> {
  const stateDir = mkdtempSync(join(tmpdir(), `addrflow-kafka-${opts.name}-`));
  const port = await freePort();
  const controller = await freePort();
  const saslPort = opts.saslUsers ? await freePort() : undefined;
  const sslPort = opts.sslDir ? await freePort() : undefined;
  const saslSslPort = opts.saslUsers && opts.sslDir ? await freePort() : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    KAFKA_STATE_DIR: stateDir,
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(controller),
    KAFKA_HEAP_OPTS: '-Xms64m -Xmx384m',
    ...(saslPort ? { KAFKA_SASL_PORT: String(saslPort) } : {}),
    ...(sslPort ? { KAFKA_SSL_PORT: String(sslPort) } : {}),
    ...(saslSslPort ? { KAFKA_SASL_SSL_PORT: String(saslSslPort) } : {}),
    ...(opts.saslUsers ? { KAFKA_SASL_USERS: Object.entries(opts.saslUsers).map(([u, p]) => `${u}:${p}`).join(',') } : {}),
    ...(opts.sslDir ? { KAFKA_SSL_DIR: opts.sslDir } : {}),
  };
  const pidFile = join(stateDir, 'kafka.pid');
  const pid = (): number | undefined => {
    try {
      return Number(readFileSync(pidFile, 'utf8').trim()) || undefined;
    } catch {
      return undefined;
    }
  };
  const run = async (script: string, extra: NodeJS.ProcessEnv = {}): Promise<void> => {
    try {
      await exec('bash', [join(ROOT, 'scripts', script)], { env: { ...env, ...extra }, timeout: 180_000 });
    } catch (e) {
      const err = e as { stderr?: string; message: string };
      throw new Error(`${script} (own broker ${opts.name}) failed: ${(err.stderr ?? err.message).trim().split('\n').slice(-8).join(' | ')}`);
    }
  };
  await run('kafka-start.sh');
  return {
    brokers: [`127.0.0.1:${port}`],
    ...(saslPort ? { sasl: [`127.0.0.1:${saslPort}`] } : {}),
    ...(sslPort ? { ssl: [`127.0.0.1:${sslPort}`] } : {}),
    ...(saslSslPort ? { saslSsl: [`127.0.0.1:${saslSslPort}`] } : {}),
    stateDir,
    pid,
    start: () => run('kafka-start.sh', { KAFKA_KEEP_DATA: '1' }),
    async kill9() {
      const p = pid();
      if (p === undefined || !pidAlive(p)) return;
      process.kill(p, 'SIGKILL');
      while (pidAlive(p)) await new Promise((r) => setTimeout(r, 50));
    },
    async stop(o = {}) {
      if (o.keepData) {
        const p = pid();
        if (p !== undefined && pidAlive(p)) {
          process.kill(p, 'SIGTERM');
          const deadline = Date.now() + 30_000;
          while (pidAlive(p) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
          if (pidAlive(p)) process.kill(p, 'SIGKILL');
        }
        return;
      }
      await run('kafka-stop.sh').catch(() => {});
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
