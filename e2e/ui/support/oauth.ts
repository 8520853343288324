import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { realmFetchOn } from '../../shared/realm-fetch';
import { PORT } from './env';
import { realmAdmin, type TestRealm } from './hosted';

// The relying party's side of the browser OAuth tests (oauth-*.spec.ts): an OAuth client made by the
// realm's administrator, a loopback redirect URI served by a tiny HTTP server that records each
// callback, and openid-client for the back channel. Node does not resolve `*.localhost`, so its
// requests connect to 127.0.0.1 and name the realm in the Host header (as e2e/api/support/oauth.ts).

/** openid-client's fetch for a realm on `<slug>.localhost`: 127.0.0.1 with the realm's Host. */
export function realmFetch(): oidc.CustomFetch {
  return realmFetchOn(PORT);
}

/** openid-client's configuration for a public client of `realm` (discovery included). */
export function discoverPublicClient(realm: TestRealm, clientId: string): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(realm.origin), clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests], [oidc.customFetch]: realmFetch() });
}

export type CallbackServer = {
  /** The redirect URI to register: `http://127.0.0.1:<port>/callback`. */
  redirectUri: string;
  /** Every callback query received so far, oldest first. */
  received: URLSearchParams[];
  close(): Promise<void>;
};

/** The client's redirect URI: records the query of each `/callback` and answers a small page. */
export async function startCallbackServer(): Promise<CallbackServer> {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') received.push(url.searchParams);
    res.writeHead(url.pathname === '/callback' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end('<!doctype html><title>Callback</title><h1>Back at the application</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An OAuth client of `realm`, made by its administrator (POST /api/admin/oauth/clients). */
export async function createOAuthClient(realm: TestRealm, body: Record<string, unknown>): Promise<{ ClientId: string; Id: string }> {
  const admin = await realmAdmin(realm);
  try {
    const res = await admin.post('/api/admin/oauth/clients', { data: body });
    if (res.status() !== 201) throw new Error(`client create answered ${res.status()}: ${await res.text()}`);
    return (await res.json()) as { ClientId: string; Id: string };
  } finally {
    await admin.dispose();
  }
}

export type AuthorizeRequest = { url: string; state: string; verifier: string };

/** An authorization request with PKCE (S256) and a fresh state, built by openid-client; `extra` adds parameters (prompt, login_hint). */
export async function authorizeRequest(
  config: oidc.Configuration,
  redirectUri: string,
  scope: string,
  extra: Record<string, string> = {},
): Promise<AuthorizeRequest> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  });
  return { url: url.href, state, verifier };
}
