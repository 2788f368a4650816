/**
 * The Kafka connection flags shared by `addrflow consume` and `addrflow topics`: brokers, TLS and
 * SASL (src/adapters/kafka/client/connection.ts), their usage text, and the refusal of secrets on
 * the command line. One definition, so both commands reach a managed cluster the same way.
 */
import { CONNECTION_ENV, ConnectionSettingsError, connectionFrom, type KafkaConnection } from '../adapters/kafka/client/connection.ts';
import { UsageError } from './command.ts';

/** parseArgs options of the connection. */
export const CONNECTION_OPTIONS = {
  brokers: { type: 'string' },
  tls: { type: 'boolean' },
  'tls-ca': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'tls-servername': { type: 'string' },
  'sasl-mechanism': { type: 'string' },
  'sasl-username': { type: 'string' },
  'sasl-password-file': { type: 'string' },
} as const;

export const CONNECTION_USAGE_LINES = `[--tls] [--tls-ca FILE] [--tls-cert FILE --tls-key FILE] [--tls-servername NAME]
                        [--sasl-mechanism plain|scram-sha-256|scram-sha-512 --sasl-username U
                         [--sasl-password-file FILE]]`;

export const CONNECTION_USAGE = `  Managed Kafka (TLS, SASL). Every flag has an environment variable; the flag wins. Secrets are
  never taken from the command line: the SASL password comes from ${CONNECTION_ENV.saslPassword} or
  a file, the client key from a file (its passphrase from ${CONNECTION_ENV.tlsKeyPassphrase}). A file
  that cannot be read or is not valid PEM stops the command: ADDR_ERR_TLS_FILE, exit 13.
  --tls              TLS to the brokers with the system CAs (env ${CONNECTION_ENV.tls}=1); implied by
                     any --tls-* file
  --tls-ca           PEM CA bundle that signs the broker certificates (${CONNECTION_ENV.tlsCaFile})
  --tls-cert, --tls-key  client certificate and unencrypted or passphrase-protected key, PEM, for
                     mutual TLS (${CONNECTION_ENV.tlsCertFile}, ${CONNECTION_ENV.tlsKeyFile})
  --tls-servername   name checked against the broker certificate (${CONNECTION_ENV.tlsServername})
  --sasl-mechanism   plain, scram-sha-256 or scram-sha-512 (${CONNECTION_ENV.saslMechanism})
  --sasl-username    (${CONNECTION_ENV.saslUsername})
  --sasl-password-file  file holding the password, one line (${CONNECTION_ENV.saslPasswordFile});
                     or the password itself in ${CONNECTION_ENV.saslPassword}`;

/** A secret given as a flag is a usage error that names where it belongs (before parseArgs, so its value is never echoed). */
export function refuseSecretFlags(argv: string[]): void {
  if (argv.some((a) => /^--(sasl-password|tls-key-passphrase|tls-passphrase)(=|$)/.test(a))) {
    throw new UsageError(`secrets are not taken from the command line: set ${CONNECTION_ENV.saslPassword} (or --sasl-password-file) / ${CONNECTION_ENV.tlsKeyPassphrase}`);
  }
}

export interface ConnectionValues {
  brokers?: string | undefined;
  tls?: boolean | undefined;
  'tls-ca'?: string | undefined;
  'tls-cert'?: string | undefined;
  'tls-key'?: string | undefined;
  'tls-servername'?: string | undefined;
  'sasl-mechanism'?: string | undefined;
  'sasl-username'?: string | undefined;
  'sasl-password-file'?: string | undefined;
}

/**
 * The connection of parsed flag values and the environment. Bad settings are usage errors
 * (exit 2); an unreadable or invalid file is a StartError TLS_FILE (exit 13).
 */
export function connectionOf(values: ConnectionValues): KafkaConnection {
  if (typeof values.brokers !== 'string' || values.brokers === '') throw new UsageError('--brokers is required');
  const brokers = values.brokers.split(',').map((s) => s.trim()).filter(Boolean);
  try {
    return connectionFrom({
      brokers, tls: values.tls, tlsCaFile: values['tls-ca'], tlsCertFile: values['tls-cert'], tlsKeyFile: values['tls-key'],
      tlsServername: values['tls-servername'], saslMechanism: values['sasl-mechanism'], saslUsername: values['sasl-username'],
      saslPasswordFile: values['sasl-password-file'],
    });
  } catch (e) {
    if (e instanceof ConnectionSettingsError) throw new UsageError(e.message);
    throw e;
  }
}
