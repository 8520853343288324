import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { administratorApprovedOffline, installInternals } from './internals';

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

describe('clients built once per stored metadata', () => {
  type Metadata = { client_id: string; client_secret: string; redirect_uris: string[]; grant_types?: string[] };
  const stored = new Map<string, Metadata>();
  let adapterReads = 0;
  class ClientsOnly {
    constructor(private readonly model: string) {}
    async find(id: string) {
      if (this.model !== 'Client') return undefined;
      adapterReads++;
      const m = stored.get(id);
      return m && structuredClone(m);
    }
  }

  async function engine() {
    const { default: Provider } = await import('oidc-provider');
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
    const provider = new Provider('http://localhost:3000', {
      adapter: ClientsOnly as never,
      jwks: { keys: [{ ...key, use: 'sig' }] as never },
      features: { devInteractions: { enabled: false } },
    });
    installInternals(provider, async (id) => stored.get(id) ?? null);
    return provider;
  }

  it('finds an unchanged client without asking the engine again, and a changed one as the engine builds it', async () => {
    const provider = await engine();
    stored.set('app', { client_id: 'app', client_secret: 'digest', redirect_uris: ['https://app.example/cb'] });
    const first = await provider.Client.find('app');
    const reads = adapterReads;
    expect(first?.redirectUris).toEqual(['https://app.example/cb']);
    expect(await provider.Client.find('app')).toBe(first);
    expect(adapterReads).toBe(reads);

    stored.set('app', { client_id: 'app', client_secret: 'digest', redirect_uris: ['https://app.example/other'] });
    const changed = await provider.Client.find('app');
    expect(changed).not.toBe(first);
    expect(changed?.redirectUris).toEqual(['https://app.example/other']);
    expect(await provider.Client.find('missing')).toBeUndefined();
  });

  it('lets the engine refuse invalid metadata every time, keeping nothing', async () => {
    const provider = await engine();
    stored.set('bad', { client_id: 'bad', client_secret: 'digest', redirect_uris: ['not a url'] });
    await expect(provider.Client.find('bad')).rejects.toThrow();
    await expect(provider.Client.find('bad')).rejects.toThrow();
  });
});
