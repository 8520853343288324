import { describe, expect, it } from 'vitest';
import { asExternalNotice, externalEntryHref } from './external-entry';

describe('externalEntryHref', () => {
  const back = '/connect/authorize?client_id=a&scope=openid email';

  it('starts OIDC at its start route with the continuation encoded', () => {
    expect(externalEntryHref({ Id: 'p 1', Name: 'Corp', Kind: 'Oidc' }, back)).toBe(
      '/api/account/external-login/p%201/start?returnUrl=%2Fconnect%2Fauthorize%3Fclient_id%3Da%26scope%3Dopenid%20email',
    );
  });

  it('starts SAML at the SP login route of its slug, and not at all without one', () => {
    expect(externalEntryHref({ Id: 'x', Name: 'Okta', Kind: 'Saml', Slug: 'okta' }, '/account')).toBe('/saml/okta/login?returnUrl=%2Faccount');
    expect(externalEntryHref({ Id: 'x', Name: 'Okta', Kind: 'Saml' }, '/account')).toBeNull();
  });

  it('starts Kerberos at the negotiate route', () => {
    expect(externalEntryHref({ Id: 'k', Name: 'AD', Kind: 'Kerberos' }, '/console')).toBe('/api/account/negotiate/k?returnUrl=%2Fconsole');
  });
});

describe('asExternalNotice', () => {
  it('accepts only the three notices', () => {
    expect(asExternalNotice('external-refused')).toBe('external-refused');
    expect(asExternalNotice('link-invalid')).toBeNull();
    expect(asExternalNotice(['external-failed'])).toBeNull();
  });
});
