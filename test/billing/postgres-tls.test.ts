/**
 * PostgreSQL over TLS, as for a managed database (issue 12): a cluster of the test's own with
 * `ssl = on` that refuses plain connections (pg_hba `hostnossl … reject`), a CA and a server
 * certificate for 127.0.0.1/localhost made here with openssl, and the real PostgresStore driven
 * by `sslmode` / `sslrootcert` in the URL (libpq's rules, src/billing/postgres/connection.ts).
 * The server also listens on 127.0.0.2, a name its certificate does not carry: verify-full must
 * refuse it, verify-ca must not care. Bad settings fail at start with one coded line (exit 6).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Billing } from '../../src/billing/billing.ts';
import { PostgresStore } from '../../src/billing/postgres/store.ts';
import { StoreUnavailableError } from '../../src/billing/store.ts';
import { StartError } from '../../src/contract/errors.ts';
import { EXIT_STORE, EXIT_TLS_FILE } from '../../src/contract/exit-codes.ts';
import { runCli } from '../helpers/cli.ts';
import { PG_CLUSTER_AVAILABLE, PG_CLUSTER_SKIP_REASON, PgCluster } from '../helpers/pg-cluster.ts';

const HAVE_OPENSSL = spawnSync('openssl', ['version']).status === 0;
const AVAILABLE = PG_CLUSTER_AVAILABLE && (HAVE_OPENSSL || process.env.ADDRFLOW_REQUIRE_POSTGRES === '1');
const title = AVAILABLE
  ? 'PostgreSQL over TLS (sslmode, sslrootcert) [own cluster, ssl=on, plain connections refused]'
  : `PostgreSQL over TLS — SKIPPED: ${PG_CLUSTER_SKIP_REASON ?? 'openssl not found'}`;

const dir = mkdtempSync(join(tmpdir(), 'addrflow-pgtls-'));
const f = (n: string) => join(dir, n);

/** A CA, a server certificate it signs (localhost, 127.0.0.1) and an unrelated second CA. */
function makeCertificates(): void {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=addrflow test CA');
  ssl('req', '-x509', ...ec, '-keyout', 'other-ca.key', '-out', 'other-ca.crt', '-days', '2', '-subj', '/CN=some other CA');
  ssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  writeFileSync(f('server.ext'), [
    'subjectAltName=DNS:localhost,IP:127.0.0.1', 'basicConstraints=CA:FALSE',
    'keyUsage=digitalSignature,keyEncipherment', 'extendedKeyUsage=serverAuth',
  ].join('\n') + '\n');
  ssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'server.ext');
}

describe.skipIf(!AVAILABLE)(title, () => {
  let cluster: PgCluster;

  beforeAll(async () => {
    makeCertificates();
    cluster = await PgCluster.create({ ssl: { cert: f('server.crt'), key: f('server.key') }, sslOnly: true, listen: ['127.0.0.1', '127.0.0.2'] });
  });
  afterAll(async () => {
    await cluster?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the store (init = a real round trip), creates an account, reads it back. */
  async function roundTrip(url: string): Promise<void> {
    const billing = await Billing.fromStore(new PostgresStore(url));
    try {
      const acc = await billing.createAccount({ credits: 100, agreements: ['lines'] });
      expect((await billing.findAccount({ id: acc.account }))?.credits).toBe(100);
    } finally {
      await billing.close();
    }
  }

  /** The error opening the store gives (undefined: it opened). */
  async function openError(url: string): Promise<unknown> {
    const store = new PostgresStore(url);
    try {
      await store.init();
      return undefined;
    } catch (err) {
      return err;
    } finally {
      await store.close();
    }
  }

  it('the server refuses plain connections (so the cases below really use TLS)', async () => {
    const err = await openError(cluster.url({ schema: 'tls_plain' }));
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect(((err as Error).cause as Error).message).toMatch(/pg_hba\.conf rejects connection .* no encryption/);
  });

  it('sslmode=require: encrypted, the certificate is not checked', async () => {
    await roundTrip(cluster.url({ schema: 'tls_require', sslmode: 'require' }));
  });

  it('sslmode=verify-ca with sslrootcert: the chain is checked, the host name is not', async () => {
    await roundTrip(cluster.url({ schema: 'tls_ca', sslmode: 'verify-ca', sslrootcert: f('ca.crt') }));
    await roundTrip(cluster.url({ schema: 'tls_ca2', sslmode: 'verify-ca', sslrootcert: f('ca.crt') }, '127.0.0.2'));
  });

  it('sslmode=verify-full with sslrootcert: chain and host name checked (127.0.0.1 is in the certificate)', async () => {
    await roundTrip(cluster.url({ schema: 'tls_full', sslmode: 'verify-full', sslrootcert: f('ca.crt') }));
  });

  it('verify-full refuses a host the certificate does not name', async () => {
    const err = await openError(cluster.url({ schema: 'tls_full_bad', sslmode: 'verify-full', sslrootcert: f('ca.crt') }, '127.0.0.2'));
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect(((err as Error).cause as { code?: string }).code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('verify-ca / verify-full refuse a server whose certificate another CA signed; require with sslrootcert does too (libpq)', async () => {
    for (const sslmode of ['verify-ca', 'verify-full', 'require']) {
      const err = await openError(cluster.url({ schema: 'tls_other', sslmode, sslrootcert: f('other-ca.crt') }));
      expect(err, sslmode).toBeInstanceOf(StoreUnavailableError);
      expect(((err as Error).cause as { code?: string }).code, sslmode).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED|UNABLE_TO_GET_ISSUER_CERT/);
    }
  });

  it('settings that cannot work are refused before connecting (ADDR_ERR_STORE_CONFIG)', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ sslmode: 'prefer' }, /sslmode=prefer is not supported/],
      [{ sslmode: 'verify-full' }, /verify-full needs sslrootcert/],
      [{ sslmode: 'verify-ca', sslrootcert: 'system' }, /sslrootcert=system needs sslmode=verify-full/],
      [{ sslmode: 'bogus' }, /unknown sslmode 'bogus'/],
      [{ ssl: 'true' }, /use sslmode=/],
      [{ schema: 'Bad-Name' }, /invalid schema name 'Bad-Name'/],
      [{ schema: 'pg_bench' }, /invalid schema name 'pg_bench': PostgreSQL reserves names that start with pg_/],
    ];
    for (const [params, msg] of bad) {
      let err: unknown;
      try {
        new PostgresStore(cluster.url(params));
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(params)).toBeInstanceOf(StartError);
      expect((err as StartError).code).toBe('ADDR_ERR_STORE_CONFIG');
      expect((err as Error).message).toMatch(msg);
    }
  });

  it('a certificate or key file that cannot be read is ADDR_ERR_TLS_FILE (exit 13), like a Kafka TLS file', () => {
    for (const params of [
      { sslmode: 'verify-ca', sslrootcert: f('nope.crt') } as Record<string, string>,
      { sslmode: 'require', sslcert: f('nope.crt'), sslkey: f('nope.key') },
    ]) {
      let err: unknown;
      try {
        new PostgresStore(cluster.url(params));
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(params)).toBeInstanceOf(StartError);
      expect((err as StartError).code).toBe('ADDR_ERR_TLS_FILE');
      expect((err as StartError).exit).toBe(EXIT_TLS_FILE);
      expect((err as Error).message).toMatch(/(sslrootcert|sslcert) '.*nope\.crt' cannot be read: no such file \(ENOENT\)/);
    }
  });

  it('the CLI over verify-full works; a wrong CA, a bad sslmode or a closed port stop it with one coded line, exit 6', async () => {
    const good = cluster.url({ schema: 'tls_cli', sslmode: 'verify-full', sslrootcert: f('ca.crt') });
    const created = await runCli(['accounts', 'create', '--credits', '40', '--agree', 'lines', '--db', good]);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toHaveProperty('account');

    const cases: [string, RegExp][] = [
      [cluster.url({ schema: 'tls_cli', sslmode: 'verify-full', sslrootcert: f('other-ca.crt') }), /^addrflow serve: ADDR_ERR_STORE_UNAVAILABLE: the billing store cannot be reached: unable to verify the first certificate.* \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)$/],
      [cluster.url({ schema: 'tls_cli', sslmode: 'prefer' }), /^addrflow serve: ADDR_ERR_STORE_CONFIG: --db: sslmode=prefer is not supported/],
      ['postgres://postgres@127.0.0.1:9/x', /^addrflow serve: ADDR_ERR_STORE_UNAVAILABLE: the billing store cannot be reached: connect ECONNREFUSED 127\.0\.0\.1:9$/],
    ];
    for (const [db, line] of cases) {
      const r = await runCli(['serve', '--port', '0', '--workers', '1', '--db', db]);
      const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(line);
      expect(r.code).toBe(EXIT_STORE);
    }
  });
});
