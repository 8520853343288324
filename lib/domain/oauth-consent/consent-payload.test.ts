import { describe, expect, it } from 'vitest';
import { pendingConsent } from './consent-payload';

const NOW = 1_700_000_000;

function interaction(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    iat: NOW - 10,
    exp: NOW + 3600,
    kind: 'Interaction',
    returnTo: 'http://r.localhost/connect/authorize/abc',
    params: { client_id: 'spa', scope: 'openid email profile offline_access', redirect_uri: 'http://127.0.0.1:9/cb' },
    prompt: { name: 'consent', reasons: ['op_scopes_missing'], details: { missingOIDCScope: ['openid', 'profile', 'email'] } },
    session: { accountId: 'user-1', uid: 'u', cookie: 'c' },
    ...overrides,
  });
}

describe('the consent an engine interaction waits for', () => {
  it('names the client, the person and the missing scopes in the order requested', () => {
    expect(pendingConsent(interaction(), NOW)).toEqual({ clientId: 'spa', accountId: 'user-1', scopes: ['openid', 'email', 'profile'], claims: [] });
  });

  it('adds resource scopes and missing claims', () => {
    const json = interaction({
      params: { client_id: 'spa', scope: 'openid api.read' },
      prompt: {
        name: 'consent',
        reasons: ['rs_scopes_missing', 'op_claims_missing'],
        details: { missingResourceScopes: { 'urn:api': ['api.read'] }, missingOIDCClaims: ['email'] },
      },
    });
    expect(pendingConsent(json, NOW)).toEqual({ clientId: 'spa', accountId: 'user-1', scopes: ['api.read'], claims: ['email'] });
  });

  it('falls back to every requested scope when nothing is missing', () => {
    const json = interaction({ prompt: { name: 'consent', reasons: ['consent_prompt'], details: {} } });
    expect(pendingConsent(json, NOW)?.scopes).toEqual(['openid', 'email', 'profile', 'offline_access']);
  });

  it.each([
    ['expired', interaction({ exp: NOW })],
    ['answered', interaction({ result: { consent: { grantId: 'g' } } })],
    ['at the login prompt', interaction({ prompt: { name: 'login', reasons: ['no_session'], details: {} } })],
    ['without a signed-in person', interaction({ session: undefined })],
    ['without a client', interaction({ params: { scope: 'openid' } })],
    ['not JSON', '{nope'],
    ['not an object', '[]'],
  ])('is null when %s', (_why, json) => {
    expect(pendingConsent(json, NOW)).toBeNull();
  });
});
