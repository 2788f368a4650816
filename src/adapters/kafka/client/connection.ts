/**
 * How the worker reaches a Kafka cluster: bootstrap brokers, TLS and SASL. One description, used
 * for every client the worker opens (kafkajs for the data path, the topic-id lookup), built from
 * the `consume` flags and environment (src/cli/commands/consume.ts) and described for logs
 * without its secrets.
 *
 * Secrets (the SASL password, the TLS key's passphrase) are never taken from the command line:
 * only from the environment or a file. The TLS key itself is a file.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { StartError } from '../../../contract/errors.ts';

export const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type SaslMechanism = (typeof SASL_MECHANISMS)[number];

export interface TlsSettings {
  /** PEM CA bundle that signs the brokers' certificates (default: Node's trusted CAs). */
  ca?: Buffer;
  /** Client certificate and key (PEM) for mutual TLS. */
  cert?: Buffer;
  key?: Buffer;
  passphrase?: string;
  /** Name checked against the broker certificate (default: the broker host). */
  servername?: string;
}

export interface SaslSettings {
  mechanism: SaslMechanism;
  username: string;
  password: string;
}

export interface KafkaConnection {
  brokers: string[];
  /** TLS on every broker connection when set (an empty object = TLS with the system CAs). */
  tls?: TlsSettings;
  sasl?: SaslSettings;
}

/** For logs: the brokers, whether TLS is on (and which files), the SASL mechanism and user. Never a secret. */
export function describeConnection(c: KafkaConnection): Record<string, unknown> {
  return {
    brokers: c.brokers,
    security: `${c.sasl ? 'SASL_' : ''}${c.tls ? 'SSL' : 'PLAINTEXT'}`,
    ...(c.tls ? { tls: { ca: c.tls.ca !== undefined, clientCertificate: c.tls.cert !== undefined, servername: c.tls.servername } } : {}),
    ...(c.sasl ? { sasl: { mechanism: c.sasl.mechanism, username: c.sasl.username } } : {}),
  };
}

export class ConnectionSettingsError extends Error {}

/** The connection inputs, flags and environment merged (flags win; secrets only from env or files). */
export interface ConnectionInputs {
  brokers: string[];
  tls?: boolean | undefined;
  tlsCaFile?: string | undefined;
  tlsCertFile?: string | undefined;
  tlsKeyFile?: string | undefined;
  tlsServername?: string | undefined;
  saslMechanism?: string | undefined;
  saslUsername?: string | undefined;
  saslPasswordFile?: string | undefined;
}

/** Environment variables of the connection (docker compose sets these). */
export const CONNECTION_ENV = {
  tls: 'ADDRFLOW_KAFKA_TLS',
  tlsCaFile: 'ADDRFLOW_KAFKA_TLS_CA_FILE',
  tlsCertFile: 'ADDRFLOW_KAFKA_TLS_CERT_FILE',
  tlsKeyFile: 'ADDRFLOW_KAFKA_TLS_KEY_FILE',
  tlsKeyPassphrase: 'ADDRFLOW_KAFKA_TLS_KEY_PASSPHRASE',
  tlsServername: 'ADDRFLOW_KAFKA_TLS_SERVERNAME',
  saslMechanism: 'ADDRFLOW_KAFKA_SASL_MECHANISM',
  saslUsername: 'ADDRFLOW_KAFKA_SASL_USERNAME',
  saslPassword: 'ADDRFLOW_KAFKA_SASL_PASSWORD',
  saslPasswordFile: 'ADDRFLOW_KAFKA_SASL_PASSWORD_FILE',
} as const;

/** Which flag and variable name a file, for the fix in a TLS_FILE line. */
const FILE_SETTING = {
  'TLS CA file': `--tls-ca / ${CONNECTION_ENV.tlsCaFile}`,
  'TLS certificate file': `--tls-cert / ${CONNECTION_ENV.tlsCertFile}`,
  'TLS key file': `--tls-key / ${CONNECTION_ENV.tlsKeyFile}`,
  'SASL password file': `--sasl-password-file / ${CONNECTION_ENV.saslPasswordFile}`,
} as const;
type FileKind = keyof typeof FILE_SETTING;

/**
 * A file the connection needs. One that cannot be read is ADDR_ERR_TLS_FILE (exit 13), like an
 * unreadable PostgreSQL certificate: the fix is the file (its path or its permissions), not the usage.
 */
function readFile(what: FileKind, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new StartError('TLS_FILE', `${what} ${path} cannot be read (${why}): give a readable file with ${FILE_SETTING[what]}`);
  }
}

function invalidFile(what: FileKind, path: string, why: string): StartError {
  return new StartError('TLS_FILE', `${what} ${path} is not valid: ${why}; give a PEM file with ${FILE_SETTING[what]}`);
}

/**
 * Checks the PEM files at start, so a wrong file is one line naming it rather than a TLS handshake
 * that fails (or, for a bad CA, a broker that looks unreachable) later. Every certificate of a CA
 * bundle is parsed; the key is opened with its passphrase and must belong to the certificate.
 */
function checkTlsFiles(t: TlsSettings, files: { ca?: string | undefined; cert?: string | undefined; key?: string | undefined }): void {
  const certificates = (what: FileKind, path: string, pem: Buffer): X509Certificate[] => {
    const blocks = pem.toString('latin1').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    if (blocks.length === 0) throw invalidFile(what, path, 'no PEM certificate (-----BEGIN CERTIFICATE-----) in it');
    try {
      return blocks.map((b) => new X509Certificate(b));
    } catch (e) {
      throw invalidFile(what, path, (e as Error).message);
    }
  };
  if (t.ca && files.ca) certificates('TLS CA file', files.ca, t.ca);
  const cert = t.cert && files.cert ? certificates('TLS certificate file', files.cert, t.cert)[0] : undefined;
  if (t.key && files.key) {
    let key;
    try {
      key = createPrivateKey({ key: t.key, format: 'pem', ...(t.passphrase !== undefined ? { passphrase: t.passphrase } : {}) });
    } catch (e) {
      const msg = (e as Error).message;
      const hint = /passphrase|decrypt|bad decrypt/i.test(msg) ? ` (encrypted key: is ${CONNECTION_ENV.tlsKeyPassphrase} set and right?)` : '';
      throw invalidFile('TLS key file', files.key, `${msg}${hint}`);
    }
    if (cert && !cert.checkPrivateKey(key)) {
      throw invalidFile('TLS key file', files.key, `the key does not belong to the certificate ${files.cert}`);
    }
  }
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());
}

/**
 * Builds the connection from flag values (`inputs`) and the environment. TLS is on when asked
 * (`tls`, ADDRFLOW_KAFKA_TLS=1) or when any TLS file is given. SASL is on when a mechanism is
 * given; it then needs a user name and a password (ADDRFLOW_KAFKA_SASL_PASSWORD or a password file,
 * whose trailing newline is dropped). Throws ConnectionSettingsError with the reason (a usage
 * error), or StartError TLS_FILE for a file that cannot be read or is not valid PEM.
 */
export function connectionFrom(inputs: ConnectionInputs, env: NodeJS.ProcessEnv = process.env): KafkaConnection {
  const e = (k: keyof typeof CONNECTION_ENV): string | undefined => {
    const v = env[CONNECTION_ENV[k]];
    return v === undefined || v === '' ? undefined : v;
  };
  const caFile = inputs.tlsCaFile ?? e('tlsCaFile');
  const certFile = inputs.tlsCertFile ?? e('tlsCertFile');
  const keyFile = inputs.tlsKeyFile ?? e('tlsKeyFile');
  const servername = inputs.tlsServername ?? e('tlsServername');
  const tlsOn = inputs.tls === true || truthy(e('tls')) || caFile !== undefined || certFile !== undefined || keyFile !== undefined;
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new ConnectionSettingsError('a TLS client certificate needs both --tls-cert and --tls-key');
  }
  const conn: KafkaConnection = { brokers: inputs.brokers };
  if (tlsOn) {
    const passphrase = e('tlsKeyPassphrase');
    conn.tls = {
      ...(caFile !== undefined ? { ca: readFile('TLS CA file', caFile) } : {}),
      ...(certFile !== undefined ? { cert: readFile('TLS certificate file', certFile) } : {}),
      ...(keyFile !== undefined ? { key: readFile('TLS key file', keyFile) } : {}),
      ...(passphrase !== undefined ? { passphrase } : {}),
      ...(servername !== undefined ? { servername } : {}),
    };
    checkTlsFiles(conn.tls, { ca: caFile, cert: certFile, key: keyFile });
  }
  const mechanism = (inputs.saslMechanism ?? e('saslMechanism'))?.toLowerCase();
  if (mechanism !== undefined) {
    if (!(SASL_MECHANISMS as readonly string[]).includes(mechanism)) {
      throw new ConnectionSettingsError(`SASL mechanism must be one of ${SASL_MECHANISMS.join(', ')} (got ${mechanism})`);
    }
    const username = inputs.saslUsername ?? e('saslUsername');
    if (!username) throw new ConnectionSettingsError(`SASL ${mechanism} needs a user name (--sasl-username or ${CONNECTION_ENV.saslUsername})`);
    const passwordFile = inputs.saslPasswordFile ?? e('saslPasswordFile');
    const password = passwordFile !== undefined
      ? readFile('SASL password file', passwordFile).toString('utf8').replace(/\r?\n$/, '')
      : e('saslPassword');
    if (!password) {
      throw new ConnectionSettingsError(`SASL ${mechanism} needs a password: ${CONNECTION_ENV.saslPassword} or a file (--sasl-password-file / ${CONNECTION_ENV.saslPasswordFile}); never on the command line`);
    }
    conn.sasl = { mechanism: mechanism as SaslMechanism, username, password };
  } else if (inputs.saslUsername ?? e('saslUsername')) {
    throw new ConnectionSettingsError('a SASL user name was given without a mechanism (--sasl-mechanism plain|scram-sha-256|scram-sha-512)');
  }
  return conn;
}
