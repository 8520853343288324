// The expensive half of a SAML response's check, off the event loop (issue 30 item 1). The main
// thread (validate-post.ts) read only the root element from the first 16 KiB and took the request
// id the response names; here the whole response is decoded and scanned against the limits
// (response-scan.ts, before anything parses it), then xmldom parses it and node-saml verifies the
// signature (xml-crypto's canonicalisation), the conditions and the audience. Bounded as it is, the
// parse still costs tens of milliseconds at the limits (benchmarks/README.md, "SAML ACS"), which is
// why it is here. The .ts modules are loaded by Node's own type stripping: they are erasable-only.
//
// Message in:  { id, options, SAMLResponse, requestId } (options: samlOptionsFor in sp-config.ts).
// Message out: { id, refused: { problem, detail } } (not base64, too large, or the scan's refusal),
//              { id, assertionXml } (the signed assertion's bytes, or null), or
//              { id, error: { status, message } } (status: the IdP's own refusal, SamlStatusError).
import { parentPort } from 'node:worker_threads';
import { SAML, SamlStatusError } from '@node-saml/node-saml';
import { MAX_RESPONSE_BYTES, RESPONSE_SHAPE_LIMITS } from './response-limits.ts';
import { scanXml } from './response-scan.ts';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** node-saml reads the request id twice (the Response, then the SubjectConfirmationData): only the one taken counts. */
function takenOnly(requestId) {
  return {
    saveAsync: async () => null,
    getAsync: async (key) => (key === requestId ? new Date().toISOString() : null),
    removeAsync: async () => null,
  };
}

/** The pre-parse refusal of `encoded`, or undefined when it is base64 of a document within the limits. */
function refusalOf(encoded) {
  const compact = encoded.replace(/\s+/g, '');
  if (!BASE64.test(compact)) return { problem: 'not-base64', detail: 'SAMLResponse is not base64' };
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > MAX_RESPONSE_BYTES) return { problem: 'too-large', detail: `${bytes.length} bytes` };
  const shape = scanXml(bytes.toString('utf8'), RESPONSE_SHAPE_LIMITS);
  return shape.ok ? undefined : { problem: shape.problem, detail: shape.detail };
}

parentPort.on('message', async ({ id, options, SAMLResponse, requestId }) => {
  try {
    const refused = refusalOf(SAMLResponse);
    if (refused) return parentPort.postMessage({ id, refused });
    const { profile } = await new SAML({ ...options, cacheProvider: takenOnly(requestId) }).validatePostResponseAsync({ SAMLResponse });
    parentPort.postMessage({ id, assertionXml: profile?.getAssertionXml?.() ?? null });
  } catch (e) {
    parentPort.postMessage({ id, error: { status: e instanceof SamlStatusError, message: String(e?.message ?? e) } });
  }
});
parentPort.postMessage({ ready: true });
