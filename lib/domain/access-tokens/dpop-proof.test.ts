import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROOF_WINDOW_SECONDS, verifyDpopProof, type ProofExpectation } from './dpop-proof';

// The DPoP proof check of Gatehouse's own API (RFC 9449 4.3, 7.1): a valid proof for the request
// passes once; any change to what it says (method, URI, time, token hash, key, type, algorithm,
// signature) is refused, and so is its second use.

const URI = 'https://id.example.test/api/admin/oauth/clients';
const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
const NOW = Date.UTC(2026, 11, 1, 12);
const ath = (t: string) => createHash('sha256').update(t).digest('base64url');

type Key = { privateKey: CryptoKey; jwk: JWK; jkt: string; alg: string };
let es256: Key;
let ed25519: Key;
let other: Key;
let es384: Key;

async function key(alg: 'ES256' | 'Ed25519' | 'ES384'): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256'), alg };
}

const goodClaims = (): JWTPayload => ({ jti: randomUUID(), htm: 'POST', htu: URI, iat: Math.floor(NOW / 1000), ath: ath(TOKEN) });

async function sign(k: Key, claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  const body = { ...claims };
  for (const [name, value] of Object.entries(body)) if (value === undefined) delete body[name];
  return new SignJWT(body).setProtectedHeader({ alg: k.alg, typ: 'dpop+jwt', jwk: k.jwk, ...header }).sign(k.privateKey);
}

function expectation(jkt: string, seen = new Set<string>()): ProofExpectation {
  return {
    method: 'POST',
    uri: URI,
    accessToken: TOKEN,
    jkt,
    now: NOW,
    firstUse: async (jti) => {
      if (seen.has(jti)) return false;
      seen.add(jti);
      return true;
    },
  };
}

// Small arbitrary JSON-ish values: what a forged claim or header member could be.
const junk = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

const refused = (p: Promise<void>) => expect(p).rejects.toMatchObject({ code: 'Auth.InvalidDpopProof', status: 401 });

// A URI that names the same resource as URI (RFC 9449 4.3 item 9 compares without query and fragment).
const sameResource = (v: unknown): boolean => {
  if (typeof v !== 'string') return false;
  const u = URL.parse(v);
  if (!u) return false;
  u.search = '';
  u.hash = '';
  return u.href === URI;
};

// Signing a proof per run is real work on a busy machine: the properties get time for their runs.
describe('verifyDpopProof', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    [es256, ed25519, other, es384] = await Promise.all([key('ES256'), key('Ed25519'), key('ES256'), key('ES384')]);
  });

  it('accepts a proof for this request once, with either algorithm, and a query or fragment in htu', async () => {
    for (const k of [es256, ed25519]) {
      const seen = new Set<string>();
      const proof = await sign(k, goodClaims());
      await expect(verifyDpopProof(proof, expectation(k.jkt, seen))).resolves.toBeUndefined();
      await refused(verifyDpopProof(proof, expectation(k.jkt, seen)));
    }
    await expect(verifyDpopProof(await sign(es256, { ...goodClaims(), htu: `${URI}?a=1#f` }), expectation(es256.jkt))).resolves.toBeUndefined();
  });

  it('accepts any iat within the window', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -PROOF_WINDOW_SECONDS, max: PROOF_WINDOW_SECONDS }), async (offset) => {
        const proof = await sign(es256, { ...goodClaims(), iat: Math.floor(NOW / 1000) + offset });
        await expect(verifyDpopProof(proof, expectation(es256.jkt))).resolves.toBeUndefined();
      }),
      { numRuns: 30 },
    );
  });

  it('refuses a missing proof, two proofs, and proofs that are no compact JWS', async () => {
    const good = await sign(es256, goodClaims());
    for (const value of [undefined, null, '', `${good}, ${good}`, `${good},${good}`, 'a.b', 'a.b.c.d', `${good} `, 'x'.repeat(9000)])
      await refused(verifyDpopProof(value, expectation(es256.jkt)));
  });

  it('refuses any claim changed to something that does not match the request', async () => {
    const claim = fc.oneof(
      fc.record({ name: fc.constant('htm'), value: fc.oneof(junk, fc.constantFrom('GET', 'post', 'PUT', ' POST', 'POST ')) }).filter((c) => c.value !== 'POST'),
      fc
        .record({
          name: fc.constant('htu'),
          value: fc.oneof(
            junk,
            fc.webUrl(),
            fc.constantFrom(
              'https://id.example.test/api/admin/oauth/clients/',
              'http://id.example.test/api/admin/oauth/clients',
              'https://other.example.test/api/admin/oauth/clients',
              'https://id.example.test:8443/api/admin/oauth/clients',
              'https://id.example.test/api/admin/oauth/scopes',
              '/api/admin/oauth/clients',
            ),
          ),
        })
        .filter((c) => !sameResource(c.value)),
      fc.record({
        name: fc.constant('iat'),
        value: fc.oneof(
          fc.integer({ min: PROOF_WINDOW_SECONDS + 1, max: 10 ** 9 }).map((d) => Math.floor(NOW / 1000) - d),
          fc.integer({ min: PROOF_WINDOW_SECONDS + 1, max: 10 ** 9 }).map((d) => Math.floor(NOW / 1000) + d),
          junk.filter((v) => typeof v !== 'number'),
          fc.constant(undefined),
        ),
      }),
      fc.record({ name: fc.constant('ath'), value: fc.oneof(junk, fc.string(), fc.constant(ath(`${TOKEN}x`))) }).filter((c) => c.value !== ath(TOKEN)),
      fc.record({
        name: fc.constant('jti'),
        value: fc.oneof(
          junk.filter((v) => typeof v !== 'string'),
          fc.constant(''),
          fc.constant('j'.repeat(257)),
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(claim, async ({ name, value }) => {
        const proof = await sign(es256, { ...goodClaims(), [name]: value });
        await refused(verifyDpopProof(proof, expectation(es256.jkt)));
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a proof of another key, of a key with private members, of another type or algorithm', async () => {
    await refused(verifyDpopProof(await sign(other, goodClaims()), expectation(es256.jkt)));
    // The header names the bound key but the proof is signed by another: the signature fails.
    await refused(verifyDpopProof(await sign(other, goodClaims(), { jwk: es256.jwk }), expectation(es256.jkt)));
    const priv = await exportJWK(es256.privateKey);
    await refused(verifyDpopProof(await sign(es256, goodClaims(), { jwk: priv }), expectation(es256.jkt)));
    await refused(verifyDpopProof(await sign(es256, goodClaims(), { jwk: undefined }), expectation(es256.jkt)));
    // ES384 is asymmetric but not among the advertised algorithms.
    await refused(verifyDpopProof(await sign(es384, goodClaims()), expectation(es384.jkt)));
    await fc.assert(
      fc.asyncProperty(
        fc
          .oneof(junk, fc.constantFrom('JWT', 'jwt', 'dpop', 'at+jwt', 'dpop+jwt '))
          .filter((t) => typeof t !== 'string' || !/^(application\/)?dpop\+jwt$/i.test(t)),
        async (typ) => {
          await refused(verifyDpopProof(await sign(es256, goodClaims(), { typ }), expectation(es256.jkt)));
        },
      ),
      { numRuns: 50 },
    );
  });

  it('refuses a proof with any character of its header, claims or signature changed', async () => {
    const proof = await sign(es256, goodClaims());
    // The last character of a base64url segment may carry unused bits, which decoders ignore.
    const positions = [...proof].map((c, i) => i).filter((i) => proof[i] !== '.' && proof[i + 1] !== '.' && i !== proof.length - 1);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...positions), fc.constantFrom(...alphabet), async (i, c) => {
        fc.pre(proof[i] !== c);
        const mutated = proof.slice(0, i) + c + proof.slice(i + 1);
        await refused(verifyDpopProof(mutated, expectation(es256.jkt)));
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a good proof for another method, URI or token, or bound to another key', async () => {
    const proof = await sign(es256, goodClaims());
    await refused(verifyDpopProof(proof, { ...expectation(es256.jkt), method: 'PUT' }));
    await refused(verifyDpopProof(proof, { ...expectation(es256.jkt), uri: 'https://id.example.test/api/admin/oauth/scopes' }));
    await refused(verifyDpopProof(proof, { ...expectation(es256.jkt), accessToken: `${TOKEN}x` }));
    await refused(verifyDpopProof(proof, expectation(other.jkt)));
    await refused(verifyDpopProof(proof, { ...expectation(es256.jkt), now: NOW + (PROOF_WINDOW_SECONDS + 1) * 1000 }));
  });
});
