import { z } from 'zod';
import { readSamlBrowserCookie, samlBrowserBindingEnforced, samlBrowserCookie } from '../auth/saml-browser-cookie';
import { MAX_ACS_BODY_BYTES, MAX_ENCODED_RESPONSE_CHARS } from '../domain/external-identity/saml/response-limits';
import { finishSamlSignIn, samlSpMetadata, startSamlSignIn } from '../domain/external-sign-in/saml-sign-in';
import { isAppError } from '../errors/app-error';
import { defineEndpoint } from '../http/endpoint';
import { externalFailureLanding, externalSignInLanding } from '../http/sign-in-landing';

// SAML 2.0, this realm as the service provider (spec 4.5; CONTRACT.md "External identity"): the SP
// metadata an IdP administrator imports, the SP-initiated login, and the assertion consumer service.
// IdP-initiated SSO, Single Logout and the Artifact binding are refused (spec 4.5 "SAML limits").
const tags = ['External login'];
const slugParams = z.object({ slug: z.string().min(1).max(63) });

export const samlSpMetadataEndpoint = defineEndpoint({
  method: 'GET',
  path: '/saml/{slug}/sp-metadata',
  summary: 'The SP metadata (entity id, ACS, signing certificate) to register this realm at the IdP',
  tags,
  auth: 'anonymous',
  params: slugParams,
  handler: async ({ ctx, params }) =>
    new Response(await samlSpMetadata(ctx, params.slug), {
      status: 200,
      headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8', 'cache-control': 'no-cache' },
    }),
});

export const samlLoginEndpoint = defineEndpoint({
  method: 'GET',
  path: '/saml/{slug}/login',
  summary: 'Start an SP-initiated SAML sign-in: 302 to the IdP with a signed AuthnRequest (HTTP-Redirect)',
  tags,
  auth: 'optional',
  rateLimit: 'external-login',
  params: slugParams,
  query: z.object({ returnUrl: z.string().max(2048).optional().catch(undefined) }),
  handler: async ({ ctx, params, query, headers }) => {
    try {
      const { location, browser } = await startSamlSignIn(ctx, params.slug, query.returnUrl);
      const cookie = samlBrowserCookie(browser);
      if (cookie) headers.append('set-cookie', cookie);
      return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } });
    } catch (e) {
      // A spent failure allowance is the 429 problem with its Retry-After, not the sign-in page.
      if (isAppError(e) && (e.code === 'Request.NotFound' || e.code === 'RateLimit.Exceeded')) throw e;
      return externalFailureLanding(e);
    }
  },
});

export const samlAcsEndpoint = defineEndpoint({
  method: 'POST',
  path: '/saml/{slug}/acs',
  summary: 'The assertion consumer service (HTTP-POST): a signed response to a request this realm sent, accepted once',
  tags,
  auth: 'anonymous',
  rateLimit: 'external-login',
  // The IdP's page posts here from its own origin, without our cookies: the signed response to a
  // request this realm sent, taken once, is the proof (saml-sign-in.ts).
  crossSitePost: true,
  bodyFormat: 'form',
  // Refused as it is read, before it is parsed (response-limits.ts).
  bodyLimit: MAX_ACS_BODY_BYTES,
  params: slugParams,
  body: z.object({
    SAMLResponse: z.string().max(MAX_ENCODED_RESPONSE_CHARS).optional(),
    SAMLRequest: z.string().max(MAX_ENCODED_RESPONSE_CHARS).optional(),
    SAMLart: z.string().max(1000).optional(),
    RelayState: z.string().max(1000).optional(),
  }),
  handler: async ({ ctx, params, body, headers, request }) => {
    try {
      const browser = { value: readSamlBrowserCookie(request.headers.get('cookie')), enforced: samlBrowserBindingEnforced() };
      const { result, returnUrl } = await finishSamlSignIn(ctx, params.slug, body, browser);
      return externalSignInLanding(result, returnUrl, headers);
    } catch (e) {
      // A spent failure allowance is the 429 problem with its Retry-After, not the sign-in page.
      if (isAppError(e) && (e.code === 'Request.NotFound' || e.code === 'RateLimit.Exceeded')) throw e;
      return externalFailureLanding(e);
    }
  },
});
