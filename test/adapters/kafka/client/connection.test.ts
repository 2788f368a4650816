/** Connection settings from flags and environment: TLS files, SASL, secrets only from env or files. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../../../src/log.ts';
import { connectionFrom, describeConnection } from '../../../../src/adapters/kafka/client/connection.ts';
import { StartError } from '../../../../src/contract/errors.ts';
import { runCli } from '../../../helpers/cli.ts';
import { makeCertificates } from '../../../helpers/tls-certs.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-conn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let pkiFiles: ReturnType<typeof makeCertificates> | undefined;
/** A CA and a client certificate and key (openssl), made once. */
const certs = (): ReturnType<typeof makeCertificates> => (pkiFiles ??= makeCertificates(mkdtempSync(join(dir, 'pki-'))));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('connectionFrom', () => {
  const brokers = ['b:9093'];

  it('is PLAINTEXT without TLS or SASL settings', () => {
    expect(connectionFrom({ brokers }, {})).toEqual({ brokers });
  });

  it('reads TLS files from flags or env; any file turns TLS on; cert needs key', () => {
    const pki = certs();
    const pem = (p: string) => readFileSync(p);
    expect(connectionFrom({ brokers, tlsCaFile: pki.ca }, {}).tls).toEqual({ ca: pem(pki.ca) });
    expect(connectionFrom({ brokers }, { ADDRFLOW_KAFKA_TLS: '1' }).tls).toEqual({});
    const c = connectionFrom({ brokers }, { ADDRFLOW_KAFKA_TLS_CA_FILE: pki.ca, ADDRFLOW_KAFKA_TLS_CERT_FILE: pki.clientCert, ADDRFLOW_KAFKA_TLS_KEY_FILE: pki.clientKey, ADDRFLOW_KAFKA_TLS_SERVERNAME: 'localhost' });
    expect(c.tls).toEqual({ ca: pem(pki.ca), cert: pem(pki.clientCert), key: pem(pki.clientKey), servername: 'localhost' });
    expect(() => connectionFrom({ brokers, tlsCertFile: pki.ca }, {})).toThrow(/both --tls-cert and --tls-key/);
  });

  it('a TLS or password file that cannot be read or is not valid is ADDR_ERR_TLS_FILE (exit 13), naming the file and the flag', () => {
    const pki = certs();
    const fails = (inputs: Parameters<typeof connectionFrom>[0], env: NodeJS.ProcessEnv = {}): StartError => {
      try {
        connectionFrom(inputs, env);
      } catch (e) {
        expect(e).toBeInstanceOf(StartError);
        return e as StartError;
      }
      throw new Error('no error');
    };
    const missing = fails({ brokers, tlsCaFile: join(dir, 'missing.pem') });
    expect([missing.code, missing.exit]).toEqual(['ADDR_ERR_TLS_FILE', 13]);
    expect(missing.message).toMatch(/TLS CA file .*missing\.pem cannot be read \(ENOENT\): give a readable file with --tls-ca \/ ADDRFLOW_KAFKA_TLS_CA_FILE/);
    expect(fails({ brokers, tlsCaFile: file('not.pem', 'CA') }).message).toMatch(/TLS CA file .*not\.pem is not valid: no PEM certificate/);
    expect(fails({ brokers, tlsCaFile: file('broken.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n') }).code).toBe('ADDR_ERR_TLS_FILE');
    expect(fails({ brokers, tlsCertFile: pki.clientCert, tlsKeyFile: file('k.pem', 'K') }).message).toMatch(/TLS key file .*k\.pem is not valid/);
    // a key that is not the certificate's (the CA's key with the client certificate)
    expect(fails({ brokers, tlsCertFile: pki.clientCert, tlsKeyFile: join(dirname(pki.ca), 'ca.key') }).message).toMatch(/does not belong to the certificate/);
    expect(fails({ brokers, saslMechanism: 'plain', saslUsername: 'u', saslPasswordFile: join(dir, 'no-pw') }).message)
      .toMatch(/SASL password file .*no-pw cannot be read \(ENOENT\): give a readable file with --sasl-password-file/);
  });

  it('addrflow topics and consume: an unreadable TLS file is one line, exit 13', async () => {
    for (const cmd of [['topics', 'check'], ['consume', '--group', 'g', '--license', 'x', '--guid', 'y']]) {
      const r = await runCli([...cmd, '--brokers', 'b:1', '--input-topic', 'i', '--results-topic', 'r', '--ledger-topic', 'l', '--tls-ca', join(dir, 'nope.pem')]);
      expect(r.code, r.stderr).toBe(13);
      expect(r.stderr.trim().split('\n')).toEqual([`addrflow ${cmd[0]}: ADDR_ERR_TLS_FILE: TLS CA file ${join(dir, 'nope.pem')} cannot be read (ENOENT): give a readable file with --tls-ca / ADDRFLOW_KAFKA_TLS_CA_FILE`]);
    }
  });

  it('takes SASL password from env or a file, never elsewhere; flags win over env', () => {
    expect(connectionFrom({ brokers, saslMechanism: 'SCRAM-SHA-512', saslUsername: 'alice' }, { ADDRFLOW_KAFKA_SASL_PASSWORD: 's3cret' }).sasl)
      .toEqual({ mechanism: 'scram-sha-512', username: 'alice', password: 's3cret' });
    const pw = file('pw', 'from-file\n');
    expect(connectionFrom({ brokers, saslPasswordFile: pw }, { ADDRFLOW_KAFKA_SASL_MECHANISM: 'plain', ADDRFLOW_KAFKA_SASL_USERNAME: 'bob', ADDRFLOW_KAFKA_SASL_PASSWORD: 'env' }).sasl)
      .toEqual({ mechanism: 'plain', username: 'bob', password: 'from-file' });
    expect(() => connectionFrom({ brokers, saslMechanism: 'scram-sha-256', saslUsername: 'a' }, {})).toThrow(/needs a password/);
    expect(() => connectionFrom({ brokers, saslMechanism: 'scram-sha-256' }, { ADDRFLOW_KAFKA_SASL_PASSWORD: 'x' })).toThrow(/needs a user name/);
    expect(() => connectionFrom({ brokers, saslMechanism: 'gssapi', saslUsername: 'a' }, { ADDRFLOW_KAFKA_SASL_PASSWORD: 'x' })).toThrow(/must be one of plain, scram-sha-256, scram-sha-512/);
    expect(() => connectionFrom({ brokers, saslUsername: 'a' }, {})).toThrow(/without a mechanism/);
  });

  it('the logger redacts a connection\'s password and passphrase even if a whole connection is logged', () => {
    let out = '';
    const log = pino(loggerOptions({ level: 'info' }), new Writable({ write(c, _e, cb) { out += c; cb(); } }));
    log.info({ kafka: { sasl: { mechanism: 'plain', username: 'u', password: 'pw-1' }, tls: { passphrase: 'pp-1' } } }, 'a');
    log.info({ sasl: { password: 'pw-2' }, passphrase: 'pp-2' }, 'b');
    expect(out).not.toMatch(/pw-[12]|pp-[12]/);
    expect(out.match(/\[redacted\]/g)?.length).toBe(4);
  });

  it('describes a connection for logs without secrets', () => {
    const c = connectionFrom({ brokers, tls: true, saslMechanism: 'scram-sha-256', saslUsername: 'alice' }, { ADDRFLOW_KAFKA_SASL_PASSWORD: 'top-secret' });
    const text = JSON.stringify(describeConnection(c));
    expect(text).toContain('SASL_SSL');
    expect(text).toContain('alice');
    expect(text).not.toContain('top-secret');
  });
});

describe('addrflow consume: secrets stay off the command line', () => {
  it('refuses --sasl-password with a usage error naming the environment variable', async () => {
    const r = await runCli(['consume', '--brokers', 'b:1', '--sasl-password', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ADDRFLOW_KAFKA_SASL_PASSWORD');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('says what is missing for SASL', async () => {
    const r = await runCli(['consume', '--brokers', 'b:1', '--group', 'g', '--input-topic', 'i', '--results-topic', 'r', '--ledger-topic', 'l', '--sasl-mechanism', 'scram-sha-512', '--sasl-username', 'u'], { env: { ADDRFLOW_KAFKA_SASL_PASSWORD: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/needs a password/);
  });
});
