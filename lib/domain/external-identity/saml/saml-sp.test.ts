import { createPrivateKey, createVerify, X509Certificate } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginAtSimpleSaml, startSimpleSamlIdp, type SimpleSamlIdp } from '@/e2e/shared/peers/simplesamlphp';
import { resolveIdp, type SamlIdp } from './idp-settings';
import { samlLoginRedirectUrl } from './login-redirect';
import { SamlRejectedError } from './rejected';
import type { RequestIdStore } from './request-id-store';
import { spUrlsFor, type SpUrls } from './sp-config';
import { generateSpKeyPair, type SpKeyPair } from './sp-key-pair';
import { spMetadataXml } from './sp-metadata';
import { validateSamlPost, type SamlAssertion } from './validate-post';

// The SP against a real SimpleSAMLphp IdP (Debian's package, e2e/shared/peers/simplesamlphp.ts).
// Most tests use an SP for which the IdP signs only the assertion, as many IdPs do: then the
// Response around it (Destination, InResponseTo, where the assertion sits) is the attacker's to
// edit, which is what XML-signature wrapping exploits.

vi.setConfig({ testTimeout: 30_000 });

const ORIGIN = 'http://realm-a.localhost:3000';
/** The IdP signs only the assertion. */
const PLAIN = spUrlsFor(ORIGIN, 'corp');
/** The IdP signs the Response and the assertion (SimpleSAMLphp's default). */
const SIGNED = spUrlsFor(ORIGIN, 'corp-signed');
/** Another SP of the same realm (same request store), assertion signed only. */
const OTHER = spUrlsFor(ORIGIN, 'partner');
/** An SP to which the IdP sends a transient NameID. */
const TRANSIENT = spUrlsFor(ORIGIN, 'kiosk');

function memoryStore(): RequestIdStore & { ids: Map<string, number> } {
  const ids = new Map<string, number>();
  return {
    ids,
    remember: async (id, expiresAt) => void ids.set(id, expiresAt.getTime()),
    takeOnce: async (id) => {
      const expiresAt = ids.get(id);
      ids.delete(id);
      return expiresAt !== undefined && expiresAt > Date.now();
    },
  };
}

let idp: SimpleSamlIdp;
let settings: SamlIdp;
let keys: SpKeyPair;
let otherKeys: SpKeyPair;

beforeAll(async () => {
  [keys, otherKeys] = await Promise.all([generateSpKeyPair('realm-a corp'), generateSpKeyPair('realm-a partner')]);
  idp = await startSimpleSamlIdp({
    sps: [
      { ...PLAIN, certificatePem: keys.certificatePem, signResponse: false },
      { ...SIGNED, certificatePem: keys.certificatePem, signResponse: true },
    ],
  });
  await idp.addSp({ ...OTHER, certificatePem: otherKeys.certificatePem, signResponse: false });
  await idp.addSp({ ...TRANSIENT, certificatePem: keys.certificatePem, nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient' });
  settings = resolveIdp({ IdpMetadataXml: idp.metadataXml });
}, 90_000);

afterAll(async () => {
  await idp?.stop();
});

type Signed = { SAMLResponse: string; xml: string; inResponseTo: string; relayState?: string };

/** One real sign-in of `username` at the IdP, for the SP `urls`, with its request id in `store`. */
async function signIn(urls: SpUrls, store: RequestIdStore, username = 'alice', spKeys = keys, relayState?: string): Promise<Signed> {
  const user = idp.users.find((u) => u.username === username)!;
  const redirect = await samlLoginRedirectUrl(settings, urls, spKeys, store, relayState);
  const posted = await loginAtSimpleSaml(redirect, user.username, user.password);
  expect(posted.acsUrl).toBe(urls.acsUrl);
  const xml = Buffer.from(posted.SAMLResponse, 'base64').toString('utf8');
  return { SAMLResponse: posted.SAMLResponse, xml, inResponseTo: /InResponseTo="([^"]+)"/.exec(xml)![1], relayState: posted.RelayState };
}

const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

async function refusal(promise: Promise<unknown>): Promise<string> {
  const e = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, 'the response was accepted').toBeInstanceOf(SamlRejectedError);
  return (e as SamlRejectedError).reason;
}

/** The signed assertion element as it appears in the response. */
function signedAssertion(xml: string): string {
  return /<saml:Assertion\b[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
}

/** An unsigned copy of the assertion that names `nameId` and `mail` instead. */
function forgedAssertion(signed: string, id: string, nameId: string, mail: string): string {
  return signed
    .replace(/<ds:Signature\b[\s\S]*<\/ds:Signature>/, '')
    .replace(/ ID="[^"]+"/, ` ID="${id}"`)
    .replace(/(<saml:NameID\b[^>]*>)[^<]*/, `$1${nameId}`)
    .replace(/alice@idp\.example/g, mail);
}

/** Accepting the response is fine only if what comes back is the genuinely signed person. */
async function refusedOrGenuine(promise: Promise<SamlAssertion>, genuineNameId: string): Promise<void> {
  const outcome = await promise.then(
    (a) => a,
    (e: unknown) => e,
  );
  if (outcome instanceof SamlRejectedError) return;
  expect(outcome).not.toBeInstanceOf(Error);
  const a = outcome as SamlAssertion;
  expect(a.nameId).toBe(genuineNameId);
  expect(a.attributes.mail).toBe('alice@idp.example');
}

describe('the SP key pair and metadata', () => {
  it('makes a self-signed RSA certificate for about ten years whose key is the private key', async () => {
    const cert = new X509Certificate(keys.certificatePem);
    expect(cert.subject).toBe('CN=realm-a corp');
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(keys.privateKeyPem))).toBe(true);
    expect(cert.publicKey.asymmetricKeyType).toBe('rsa');
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBeGreaterThanOrEqual(2048);
    const years = (Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / (365.25 * 86_400_000);
    expect(years).toBeGreaterThan(9.9);
    expect(keys.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n([A-Za-z0-9+/=]{64}\n)+[A-Za-z0-9+/=]{1,64}\n-----END PRIVATE KEY-----\n$/);
  });

  it('publishes metadata that parses back: signed requests, signed assertions, one HTTP-POST ACS, no logout', () => {
    const xml = spMetadataXml(PLAIN, keys);
    const doc = new DOMParser({ errorHandler: { error: (m) => expect.fail(m), fatalError: (m) => expect.fail(m) } }).parseFromString(xml, 'text/xml');
    const md = 'urn:oasis:names:tc:SAML:2.0:metadata';
    const entity = doc.documentElement;
    expect(entity.localName).toBe('EntityDescriptor');
    expect(entity.getAttribute('entityID')).toBe(PLAIN.entityId);
    const sp = doc.getElementsByTagNameNS(md, 'SPSSODescriptor')[0];
    expect(sp.getAttribute('AuthnRequestsSigned')).toBe('true');
    expect(sp.getAttribute('WantAssertionsSigned')).toBe('true');
    const acs = Array.from(doc.getElementsByTagNameNS(md, 'AssertionConsumerService'));
    expect(acs.map((a) => [a.getAttribute('Binding'), a.getAttribute('Location')])).toEqual([
      ['urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', 'http://realm-a.localhost:3000/saml/corp/acs'],
    ]);
    expect(doc.getElementsByTagNameNS(md, 'SingleLogoutService').length).toBe(0);
    const keyDescriptors = Array.from(doc.getElementsByTagNameNS(md, 'KeyDescriptor'));
    expect(keyDescriptors.map((k) => k.getAttribute('use'))).toEqual(['signing']);
    const published = doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'X509Certificate')[0].textContent.replace(/\s+/g, '');
    expect(published).toBe(keys.certificatePem.replace(/-----[^-]+-----|\s+/g, ''));
  });
});

describe('the IdP settings', () => {
  it('reads the entity id, the HTTP-Redirect SSO URL and the signing certificate from SimpleSAMLphp metadata', () => {
    expect(settings.entityId).toBe(idp.entityId);
    expect(settings.ssoUrl).toBe(idp.ssoUrl);
    expect(settings.certificates).toHaveLength(1);
    expect(new X509Certificate(settings.certificates[0]).fingerprint256).toBe(new X509Certificate(idp.certificatePem).fingerprint256);
  });

  it('takes the three fields when there is no metadata, with every certificate of a rollover', () => {
    const two = `${idp.certificatePem}\n${keys.certificatePem}`;
    const fromFields = resolveIdp({ IdpEntityId: 'https://idp.example/x', IdpSsoUrl: 'https://idp.example/sso', IdpCertificate: two });
    expect(fromFields.entityId).toBe('https://idp.example/x');
    expect(fromFields.ssoUrl).toBe('https://idp.example/sso');
    expect(fromFields.certificates.map((c) => new X509Certificate(c).subject)).toEqual(['CN=SimpleSAMLphp test IdP', 'CN=realm-a corp']);
  });

  it('refuses incomplete settings, a DOCTYPE, metadata without an IdP or without a certificate', () => {
    expect(() => resolveIdp({ IdpEntityId: 'https://idp.example/x', IdpSsoUrl: 'https://idp.example/sso' })).toThrow(/missing: IdpCertificate/);
    const doctype = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]>${idp.metadataXml.replace(/^<\?xml[^>]*>/, '')}`;
    expect(() => resolveIdp({ IdpMetadataXml: doctype })).toThrow(/DOCTYPE/);
    expect(() => resolveIdp({ IdpMetadataXml: spMetadataXml(PLAIN, keys) })).toThrow(/no IDPSSODescriptor/);
    const noKey = idp.metadataXml.replace(/<md:KeyDescriptor[\s\S]*?<\/md:KeyDescriptor>/g, '');
    expect(noKey).not.toBe(idp.metadataXml);
    expect(() => resolveIdp({ IdpMetadataXml: noKey })).toThrow(/no signing certificate/);
    expect(() => resolveIdp({ IdpMetadataXml: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"' })).toThrow(/not well-formed/);
  });
});

describe('the AuthnRequest', () => {
  it('is deflated, signed with RSA-SHA256 over the query, and its ID is remembered', async () => {
    const store = memoryStore();
    const url = new URL(await samlLoginRedirectUrl(settings, PLAIN, keys, store, 'state-1'));
    expect(url.origin + url.pathname).toBe(idp.ssoUrl);
    expect(url.searchParams.get('RelayState')).toBe('state-1');
    expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    // HTTP-Redirect binding 3.4.4.1: the signature covers the query parameters as sent, in this order.
    const raw = url.search.slice(1).split('&');
    const part = (k: string) => raw.find((p) => p.startsWith(`${k}=`))!;
    const signedOver = [part('SAMLRequest'), part('RelayState'), part('SigAlg')].join('&');
    const verifier = createVerify('RSA-SHA256').update(signedOver);
    expect(verifier.verify(keys.certificatePem, url.searchParams.get('Signature')!, 'base64')).toBe(true);

    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    const id = /\bID="([^"]+)"/.exec(request)![1];
    expect([...store.ids.keys()]).toEqual([id]);
    expect(request).toContain(`AssertionConsumerServiceURL="${PLAIN.acsUrl}"`);
    expect(request).toContain(`Destination="${idp.ssoUrl}"`);
    expect(request).toContain(`>${PLAIN.entityId}</saml:Issuer>`);
    expect(request).toContain('ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"');
  });

  it('is refused by the IdP when unsigned or signed by another key (the IdP checks our signature)', async () => {
    const url = new URL(await samlLoginRedirectUrl(settings, PLAIN, keys, memoryStore()));
    const unsigned = new URL(url);
    unsigned.searchParams.delete('Signature');
    unsigned.searchParams.delete('SigAlg');
    await expect(loginAtSimpleSaml(unsigned.toString(), 'alice', 'alice-Idp-pw1')).rejects.toThrow(/did not show its login form/);
    expect(idp.log()).toContain('Validation of received messages enabled, but no signature found on message.');
    const foreign = await samlLoginRedirectUrl(settings, PLAIN, otherKeys, memoryStore());
    await expect(loginAtSimpleSaml(foreign, 'alice', 'alice-Idp-pw1')).rejects.toThrow(/did not show its login form/);
    expect(idp.log()).toContain('Unable to validate signature on query string.');
  });

  it('refuses a RelayState longer than the binding allows', async () => {
    await expect(samlLoginRedirectUrl(settings, PLAIN, keys, memoryStore(), 'x'.repeat(81))).rejects.toThrow(/80 bytes/);
  });
});

describe('a sign-in through SimpleSAMLphp', () => {
  it('returns the NameID and the attributes of the signed assertion (IdP signs only the assertion)', async () => {
    const store = memoryStore();
    const r = await signIn(PLAIN, store, 'alice', keys, 'back-to-1');
    expect(r.relayState).toBe('back-to-1');
    expect(r.xml).not.toMatch(/<samlp:Response[^>]*>\s*<saml:Issuer[^>]*>[^<]*<\/saml:Issuer>\s*<ds:Signature/);
    const a = await validateSamlPost(settings, PLAIN, store, { SAMLResponse: r.SAMLResponse });
    expect(a.issuer).toBe(idp.entityId);
    expect(a.nameIdFormat).toBe('urn:oasis:names:tc:SAML:2.0:nameid-format:persistent');
    expect(a.nameId).toMatch(/^[0-9a-f]{40}$/);
    expect(a.sessionIndex).toMatch(/^_/);
    expect(a.attributes).toEqual({ uid: 'alice', mail: 'alice@idp.example', givenName: 'Alice', sn: 'Liddell' });
    // The persistent NameID is stable for the person at this SP.
    const again = memoryStore();
    expect((await validateSamlPost(settings, PLAIN, again, await signIn(PLAIN, again))).nameId).toBe(a.nameId);
  });

  it('works the same when the IdP signs the Response too, and keeps quotes in values', async () => {
    const store = memoryStore();
    const r = await signIn(SIGNED, store, "o'hara");
    expect(r.xml).toMatch(/<samlp:Response[^>]*>\s*<saml:Issuer[^>]*>[^<]*<\/saml:Issuer>\s*<ds:Signature/);
    const a = await validateSamlPost(settings, SIGNED, store, r);
    expect(a.attributes).toEqual({ uid: "o'hara", mail: 'ohara@idp.example', givenName: 'Scarlett', sn: "O'Hara" });
  });

  it('refuses the same response posted twice', async () => {
    const store = memoryStore();
    const r = await signIn(PLAIN, store);
    await validateSamlPost(settings, PLAIN, store, r);
    expect(store.ids.has(r.inResponseTo)).toBe(false);
    expect(await refusal(validateSamlPost(settings, PLAIN, store, r))).toBe('replayed');
  });

  it('accepts one of two copies posted at the same moment', async () => {
    const store = memoryStore();
    const r = await signIn(PLAIN, store);
    const outcomes = await Promise.allSettled([validateSamlPost(settings, PLAIN, store, r), validateSamlPost(settings, PLAIN, store, r)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it("refuses a response to a request another realm's store sent, which stays valid for that realm", async () => {
    const ours = memoryStore();
    const theirs = memoryStore();
    const r = await signIn(PLAIN, theirs);
    expect(await refusal(validateSamlPost(settings, PLAIN, ours, r))).toBe('not a response to a request we sent');
    expect((await validateSamlPost(settings, PLAIN, theirs, r)).attributes.uid).toBe('alice');
  });

  it('refuses an unsolicited response (IdP-initiated SSO), real or made by removing InResponseTo', async () => {
    const store = memoryStore();
    const unsolicited = await loginAtSimpleSaml(`${idp.ssoUrl}?spentityid=${encodeURIComponent(PLAIN.entityId)}`, 'alice', 'alice-Idp-pw1');
    expect(unsolicited.acsUrl).toBe(PLAIN.acsUrl);
    expect(await refusal(validateSamlPost(settings, PLAIN, store, unsolicited))).toBe('IdP-initiated SSO is not supported');

    const r = await signIn(PLAIN, store);
    const stripped = r.xml.replace(/(<samlp:Response\b[^>]*?) InResponseTo="[^"]+"/, '$1');
    expect(stripped).not.toBe(r.xml);
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: encode(stripped) }))).toBe('IdP-initiated SSO is not supported');
  });

  it('refuses an IdP-initiated assertion slipped into a Response that names one of our pending requests', async () => {
    const store = memoryStore();
    const unsolicited = await loginAtSimpleSaml(`${idp.ssoUrl}?spentityid=${encodeURIComponent(PLAIN.entityId)}`, 'bob', 'bob-Idp-pw2');
    // The attacker starts a sign-in of their own to learn a request id this store is waiting for.
    const pending = inflateRawSync(
      Buffer.from(new URL(await samlLoginRedirectUrl(settings, PLAIN, keys, store)).searchParams.get('SAMLRequest')!, 'base64'),
    ).toString();
    const id = /\bID="([^"]+)"/.exec(pending)![1];
    const xml = Buffer.from(unsolicited.SAMLResponse, 'base64').toString('utf8');
    expect(xml).not.toContain('InResponseTo=');
    const injected = xml.replace(/<samlp:Response\b/, `<samlp:Response InResponseTo="${id}"`);
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: encode(injected) }))).toBe('not a response to a request we sent');
  });

  it('refuses a response whose Destination is not our ACS', async () => {
    const store = memoryStore();
    const r = await signIn(PLAIN, store);
    const moved = r.xml.replace(`Destination="${PLAIN.acsUrl}"`, `Destination="${OTHER.acsUrl}"`);
    expect(moved).not.toBe(r.xml);
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: encode(moved) }))).toBe('destination');
    const signedStore = memoryStore();
    const s = await signIn(SIGNED, signedStore);
    expect(await refusal(validateSamlPost(settings, PLAIN, signedStore, s))).toBe('destination');
  });

  it("refuses another SP's response: at our ACS, and even with its Destination rewritten to ours (the signed Recipient)", async () => {
    const store = memoryStore(); // one realm, two SAML providers: one store
    const r = await signIn(OTHER, store, 'alice', otherKeys);
    expect(await refusal(validateSamlPost(settings, PLAIN, store, r))).toBe('destination');
    const rewritten = r.xml.replace(`Destination="${OTHER.acsUrl}"`, `Destination="${PLAIN.acsUrl}"`);
    expect(await refusal(validateSamlPost(settings, { entityId: OTHER.entityId, acsUrl: PLAIN.acsUrl }, store, { SAMLResponse: encode(rewritten) }))).toBe(
      'destination',
    );
  });

  it('refuses an assertion meant for another audience', async () => {
    const store = memoryStore();
    const r = await signIn(PLAIN, store);
    // Everything about the delivery is right (Destination, Recipient, InResponseTo); only the audience differs.
    expect(await refusal(validateSamlPost(settings, { entityId: OTHER.entityId, acsUrl: PLAIN.acsUrl }, store, r))).toBe('audience');
  });

  it('refuses a tampered attribute value (signature)', async () => {
    const store = memoryStore();
    const r = await signIn(PLAIN, store);
    const tampered = r.xml.replace('>alice@idp.example<', '>mallory@evil.example<');
    expect(tampered).not.toBe(r.xml);
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: encode(tampered) }))).toBe('signature');
    const signedStore = memoryStore();
    const s = await signIn(SIGNED, signedStore);
    const tamperedSigned = s.xml.replace('>alice@idp.example<', '>mallory@evil.example<');
    expect(await refusal(validateSamlPost(settings, SIGNED, signedStore, { SAMLResponse: encode(tamperedSigned) }))).toBe('signature');
  });

  it('refuses an assertion signed by a key that is not the IdP’s', async () => {
    const store = memoryStore();
    const r = await signIn(PLAIN, store);
    const otherIdp = { ...settings, certificates: [keys.certificatePem] };
    expect(await refusal(validateSamlPost(otherIdp, PLAIN, store, r))).toBe('signature');
  });

  it('refuses an assertion whose Issuer is not the configured IdP, even signed by its key', async () => {
    const store = memoryStore();
    const r = await signIn(PLAIN, store);
    expect(await refusal(validateSamlPost({ ...settings, entityId: 'https://another-idp.example/' }, PLAIN, store, r))).toBe('issuer');
  });

  it('refuses a transient NameID, which cannot name a person twice', async () => {
    const store = memoryStore();
    const r = await signIn(TRANSIENT, store);
    expect(r.xml).toContain('nameid-format:transient');
    expect(await refusal(validateSamlPost(settings, TRANSIENT, store, r))).toMatch(/^transient NameID/);
  });

  it('refuses an expired assertion and one not yet valid (the clock moved past the IdP’s window)', async () => {
    const store = memoryStore();
    const r = await signIn(PLAIN, store);
    const early = memoryStore();
    const e = await signIn(PLAIN, early);
    try {
      // SimpleSAMLphp's assertions live 5 minutes; our clock skew allowance is 1 minute.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60_000 });
      expect(await refusal(validateSamlPost(settings, PLAIN, store, r))).toBe('expired');
      vi.setSystemTime(Date.now() - 20 * 60_000);
      expect(await refusal(validateSamlPost(settings, PLAIN, early, e))).toBe('not yet valid');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('XML-signature wrapping (the signed person is the only one ever returned)', () => {
  const cases: Array<[string, (xml: string, signed: string, evil: (id: string) => string) => string]> = [
    ['an unsigned assertion before the signed one', (xml, signed, evil) => xml.replace(signed, evil('_evil1') + signed)],
    ['an unsigned assertion after the signed one', (xml, signed, evil) => xml.replace(signed, signed + evil('_evil2'))],
    [
      'an unsigned assertion inside samlp:Extensions of the Response',
      (xml, signed, evil) => xml.replace(/(<samlp:Status>)/, `<samlp:Extensions>${evil('_evil3')}</samlp:Extensions>$1`),
    ],
    [
      'the signed assertion moved into Extensions, an unsigned one with its ID in its place',
      (xml, signed, evil) => {
        const id = / ID="([^"]+)"/.exec(signed)![1];
        return xml.replace(signed, evil(id)).replace(/(<samlp:Status>)/, `<samlp:Extensions>${signed}</samlp:Extensions>$1`);
      },
    ],
    [
      'an unsigned assertion inside a ds:Object of the signature',
      (xml, signed, evil) => xml.replace('</ds:KeyInfo></ds:Signature>', `</ds:KeyInfo><ds:Object>${evil('_evil5')}</ds:Object></ds:Signature>`),
    ],
    [
      'the signed assertion inside a ds:Object, an unsigned one with its ID in its place',
      (xml, signed, evil) => {
        const id = / ID="([^"]+)"/.exec(signed)![1];
        const forged = evil(id).replace(
          /(<\/saml:Issuer>)/,
          `$1<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:Object>${signed}</ds:Object></ds:Signature>`,
        );
        return xml.replace(signed, forged);
      },
    ],
  ];

  it.each(cases)('%s', async (_name, wrap) => {
    const store = memoryStore();
    const r = await signIn(PLAIN, store);
    const signed = signedAssertion(r.xml);
    const genuine = /<saml:NameID\b[^>]*>([^<]*)</.exec(signed)![1];
    const wrapped = wrap(r.xml, signed, (id) => forgedAssertion(signed, id, 'mallory-persistent-id', 'mallory@evil.example'));
    expect(wrapped).not.toBe(r.xml);
    expect(wrapped).toContain('mallory-persistent-id');
    await refusedOrGenuine(validateSamlPost(settings, PLAIN, store, { SAMLResponse: encode(wrapped) }), genuine);
  });
});

describe('what the ACS refuses before reading any assertion', () => {
  it('refuses Single Logout messages, the Artifact binding, an empty post, a DOCTYPE and non-XML', async () => {
    const store = memoryStore();
    const logoutRequest = `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_l1" Version="2.0" IssueInstant="2026-01-01T00:00:00Z"><saml:Issuer>${idp.entityId}</saml:Issuer><saml:NameID>x</saml:NameID></samlp:LogoutRequest>`;
    const logoutResponse = `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_l2" Version="2.0" IssueInstant="2026-01-01T00:00:00Z" InResponseTo="_x"><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`;
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLRequest: encode(logoutRequest) }))).toBe('Single Logout is not supported');
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: encode(logoutResponse) }))).toBe('Single Logout is not supported');
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: encode(logoutRequest) }))).toBe('Single Logout is not supported');
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLart: 'AAQAAMh48/1oXIM+sDo7Dh2qMp1HM4IF5DaRNmDj6RdUmllwn9jJHyEgIi8=' }))).toBe(
      'Artifact binding is not supported',
    );
    expect(await refusal(validateSamlPost(settings, PLAIN, store, {}))).toBe('no SAMLResponse');
    const r = await signIn(PLAIN, store);
    const withDoctype = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "x">]>${r.xml}`;
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: encode(withDoctype) }))).toBe('malformed response');
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: 'not base64 at all!' }))).toBe('malformed response');
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: encode('<samlp:Response') }))).toBe('malformed response');
    // None of these consumed the pending request: the genuine response still signs in.
    expect((await validateSamlPost(settings, PLAIN, store, r)).attributes.uid).toBe('alice');
  });

  it('reads only the root of a response to no pending request: what follows it is never decoded (issue 30 item 1)', async () => {
    const store = memoryStore();
    const root = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_x" Version="2.0" Destination="${PLAIN.acsUrl}" InResponseTo="_nobody-asked">`;
    // 30 KB of unclosed elements, then what is not even base64: a full decode or parse would call it malformed.
    const opening = root + ' '.repeat((3 - (root.length % 3)) % 3) + '<a>'.repeat(10_000);
    const garbage = encode(opening) + '!!!'.repeat(1000);
    expect(encode(opening)).not.toContain('=');
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: garbage }))).toBe('not a response to a request we sent');
    const longId = encode(root.replace('_nobody-asked', `_${'a'.repeat(500)}`));
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: longId }))).toBe('not a response to a request we sent');
    // Beyond the size limit: refused from the length alone.
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: 'A'.repeat(200_000) }))).toBe('too large or too deeply nested');
  });

  it('refuses a response to a pending request beyond the shape limits before parsing it, and refuses another browser', async () => {
    const store = memoryStore();
    const r = await signIn(PLAIN, store);
    const nested = r.xml.replace('</samlp:Response>', '<a>'.repeat(40) + '</a>'.repeat(40) + '</samlp:Response>');
    expect(await refusal(validateSamlPost(settings, PLAIN, store, { SAMLResponse: encode(nested) }))).toBe('too large or too deeply nested');
    const s = await signIn(PLAIN, store);
    expect(await refusal(validateSamlPost(settings, PLAIN, store, s, () => false))).toBe('the answer belongs to a sign-in another browser started');
  });
});
