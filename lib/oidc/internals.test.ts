import { describe, expect, it } from 'vitest';
import { administratorApprovedOffline } from './internals';

const client = (consent: string, scope = 'openid offline_access', grants = ['authorization_code', 'refresh_token']) => ({
  consent_type: consent,
  scope,
  grantTypeAllowed: (t: string) => grants.includes(t),
});

describe('offline access approved by the administrator (Implicit consent)', () => {
  const ask = { route: 'authorization', params: { scope: 'openid offline_access' } };

  it('holds for an Implicit client that may refresh and has offline_access', () => {
    expect(administratorApprovedOffline({ ...ask, client: client('Implicit') })).toBe(true);
    expect(administratorApprovedOffline({ route: 'pushed_authorization_request', params: ask.params, client: client('Implicit') })).toBe(true);
  });

  it('does not hold for Explicit clients, prompt=none, other routes, or clients without the grant or scope', () => {
    expect(administratorApprovedOffline({ ...ask, client: client('Explicit') })).toBe(false);
    expect(administratorApprovedOffline({ ...ask, params: { ...ask.params, prompt: 'none' }, client: client('Implicit') })).toBe(false);
    expect(administratorApprovedOffline({ ...ask, route: 'resume', client: client('Implicit') })).toBe(false);
    expect(administratorApprovedOffline({ ...ask, client: client('Implicit', 'openid') })).toBe(false);
    expect(administratorApprovedOffline({ ...ask, client: client('Implicit', undefined, ['authorization_code']) })).toBe(false);
    expect(administratorApprovedOffline({ ...ask, params: { scope: 'openid' }, client: client('Implicit') })).toBe(false);
  });
});
