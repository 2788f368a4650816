/**
 * A throw-away PKI for TLS tests, made with openssl: a CA, a broker certificate for
 * 127.0.0.1/localhost and a client certificate, all signed by the CA. Files (PEM) in `dir`:
 *   ca.pem, ca.key            the CA
 *   broker.pem                broker key (unencrypted PKCS#8) + certificate: Kafka's PEM keystore
 *   client.crt, client.key    the client's certificate and key
 * `tlsUnavailable()` says why not (no openssl).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function tlsUnavailable(): string | undefined {
  return spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0 ? undefined : 'no openssl on PATH';
}

function openssl(dir: string, args: string[]): void {
  const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
}

export function makeCertificates(dir: string): { ca: string; brokerPem: string; clientCert: string; clientKey: string } {
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=addrflow-test-ca']);
  for (const who of ['broker', 'client']) {
    openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${who}.key`, '-out', `${who}.csr`, '-subj', `/CN=${who === 'broker' ? 'localhost' : 'addrflow-client'}`]);
    writeFileSync(join(dir, `${who}.ext`), who === 'broker'
      ? 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n'
      : 'extendedKeyUsage=clientAuth\n');
    openssl(dir, ['x509', '-req', '-in', `${who}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${who}.crt`, '-days', '2', '-extfile', `${who}.ext`]);
  }
  writeFileSync(join(dir, 'broker.pem'), readFileSync(join(dir, 'broker.key'), 'utf8') + readFileSync(join(dir, 'broker.crt'), 'utf8'));
  return { ca: join(dir, 'ca.pem'), brokerPem: join(dir, 'broker.pem'), clientCert: join(dir, 'client.crt'), clientKey: join(dir, 'client.key') };
}
