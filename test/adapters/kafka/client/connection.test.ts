/** Connection settings from flags and environment: TLS files, SASL, secrets only from env or files. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../../../src/log.ts';
import { connectionFrom, describeConnection } from '../../../../src/adapters/kafka/client/connection.ts';
import { runCli } from '../../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'addrflow-conn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
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
    const ca = file('ca.pem', 'CA');
    expect(connectionFrom({ brokers, tlsCaFile: ca }, {}).tls).toEqual({ ca: Buffer.from('CA') });
    expect(connectionFrom({ brokers }, { ADDRFLOW_KAFKA_TLS: '1' }).tls).toEqual({});
    const c = connectionFrom({ brokers }, { ADDRFLOW_KAFKA_TLS_CA_FILE: ca, ADDRFLOW_KAFKA_TLS_CERT_FILE: file('c.crt', 'C'), ADDRFLOW_KAFKA_TLS_KEY_FILE: file('c.key', 'K'), ADDRFLOW_KAFKA_TLS_KEY_PASSPHRASE: 'pp' });
    expect(c.tls).toEqual({ ca: Buffer.from('CA'), cert: Buffer.from('C'), key: Buffer.from('K'), passphrase: 'pp' });
    expect(() => connectionFrom({ brokers, tlsCertFile: ca }, {})).toThrow(/both --tls-cert and --tls-key/);
    expect(() => connectionFrom({ brokers, tlsCaFile: join(dir, 'missing.pem') }, {})).toThrow(/TLS CA file .*missing\.pem: ENOENT/);
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
