import { describe, expect, it } from 'vitest';
import { clientRuleErrors, type ClientShape } from './client-rules';

const spa: ClientShape = {
  clientType: 'Public',
  grantTypes: ['authorization_code', 'refresh_token'],
  redirectUris: ['https://app.example.com/cb'],
  postLogoutRedirectUris: [],
  capabilities: [],
};

describe('OAuth client rules', () => {
  it('accepts a coherent public and confidential client', () => {
    expect(clientRuleErrors(spa)).toEqual({});
    expect(
      clientRuleErrors({ ...spa, clientType: 'Confidential', grantTypes: ['client_credentials'], redirectUris: [], capabilities: ['cap:trusted-forwarder'] }),
    ).toEqual({});
    expect(clientRuleErrors({ ...spa, grantTypes: ['urn:gatehouse:otp', 'urn:ietf:params:oauth:grant-type:device_code'], redirectUris: [] })).toEqual({});
  });

  it('names unknown grant types and wants at least one', () => {
    expect(clientRuleErrors({ ...spa, grantTypes: ['implicit', 'password'] }).GrantTypes?.[0]).toMatch(/implicit, password/);
    expect(clientRuleErrors({ ...spa, grantTypes: [] }).GrantTypes).toHaveLength(1);
  });

  it('keeps client_credentials and the trusted-forwarder capability to confidential clients', () => {
    expect(clientRuleErrors({ ...spa, grantTypes: ['client_credentials'] }).GrantTypes?.[0]).toMatch(/Confidential/);
    expect(clientRuleErrors({ ...spa, capabilities: ['cap:trusted-forwarder'] }).Capabilities?.[0]).toMatch(/Confidential/);
    expect(clientRuleErrors({ ...spa, capabilities: ['cap:introspect-any'] }).Capabilities?.[0]).toMatch(/cap:introspect-any needs a Confidential/);
    expect(
      clientRuleErrors({ ...spa, clientType: 'Confidential', grantTypes: ['client_credentials'], redirectUris: [], capabilities: ['cap:introspect-any'] }),
    ).toEqual({});
    expect(clientRuleErrors({ ...spa, clientType: 'Confidential', capabilities: ['cap:admin'] }).Capabilities?.[0]).toMatch(/cap:admin/);
  });

  it('wants a redirect URI for authorization_code and checks every URI', () => {
    expect(clientRuleErrors({ ...spa, redirectUris: [] }).RedirectUris).toHaveLength(1);
    const errors = clientRuleErrors({
      ...spa,
      redirectUris: ['https://ok.example/cb', 'http://evil.example/cb'],
      postLogoutRedirectUris: ['https://x.example/#f'],
    });
    expect(errors.RedirectUris).toHaveLength(1);
    expect(errors.PostLogoutRedirectUris).toHaveLength(1);
  });
});
