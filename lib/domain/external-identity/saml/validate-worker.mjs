// The expensive half of a SAML response's check, off the event loop (issue 30 item 1): xmldom's
// parse, node-saml's signature verification (xml-crypto's canonicalisation), its conditions and
// audience checks. A response that reaches this thread already passed the cheap checks of
// validate-post.ts: its size and shape are within limits (response-scan.ts) and its InResponseTo
// was a request this realm sent, taken once on the main thread. Bounded as it is, the parse still
// costs tens of milliseconds at the limits (benchmarks/README.md, "SAML ACS"), which is why it is here.
//
// Message in:  { id, options, SAMLResponse, requestId } (options: samlOptionsFor in sp-config.ts).
// Message out: { id, assertionXml } (the signed assertion's bytes, or null), or
//              { id, error: { status, message } } (status: the IdP's own refusal, SamlStatusError).
import { parentPort } from 'node:worker_threads';
import { SAML, SamlStatusError } from '@node-saml/node-saml';

/** node-saml reads the request id twice (the Response, then the SubjectConfirmationData): only the one taken counts. */
function takenOnly(requestId) {
  return {
    saveAsync: async () => null,
    getAsync: async (key) => (key === requestId ? new Date().toISOString() : null),
    removeAsync: async () => null,
  };
}

parentPort.on('message', async ({ id, options, SAMLResponse, requestId }) => {
  try {
    const { profile } = await new SAML({ ...options, cacheProvider: takenOnly(requestId) }).validatePostResponseAsync({ SAMLResponse });
    parentPort.postMessage({ id, assertionXml: profile?.getAssertionXml?.() ?? null });
  } catch (e) {
    parentPort.postMessage({ id, error: { status: e instanceof SamlStatusError, message: String(e?.message ?? e) } });
  }
});
parentPort.postMessage({ ready: true });
