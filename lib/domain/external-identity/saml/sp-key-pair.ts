import { webcrypto } from 'node:crypto';
// @peculiar/x509 builds on tsyringe, which needs the Reflect metadata API before it loads (its README,
// "Reflect Polyfill Required"); @simplewebauthn/server loads the same polyfill the same way.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

// The SP's signing key pair. SAML signs with keys carried in X.509 certificates (the SP metadata's
// KeyDescriptor, the IdP's trust in our AuthnRequests), and node:crypto cannot make a certificate,
// hence @peculiar/x509 over Node's WebCrypto. Self-signed is normal in SAML: the IdP trusts the
// certificate it was given in the metadata, not a CA.

export type SpKeyPair = { privateKeyPem: string; certificatePem: string };

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;
/** Long-lived on purpose: replacing it means re-registering the SP at the IdP (SAML metadata has no rollover by itself). */
const VALID_YEARS = 10;

export async function generateSpKeyPair(commonName: string): Promise<SpKeyPair> {
  const crypto = webcrypto as unknown as Crypto;
  const keys = await crypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALID_YEARS);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      // A JSON name, so that a common name with commas or equals signs needs no DN escaping.
      name: [{ CN: [commonName.slice(0, 64) || 'Gatehouse SAML SP'] }],
      notBefore,
      notAfter,
      signingAlgorithm: RSA,
      keys,
      extensions: [new x509.BasicConstraintsExtension(false, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
    },
    crypto,
  );
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { privateKeyPem: pem('PRIVATE KEY', pkcs8), certificatePem: certificate.toString('pem') + '\n' };
}

/** RFC 7468 strict PEM (64-character lines), the form node-saml insists on. */
function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
