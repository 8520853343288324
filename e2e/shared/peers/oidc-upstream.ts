import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload, type ClientMetadata, type Configuration } from 'oidc-provider';

// A real upstream identity provider for the external-identity tests (issue 10, "Tests against real
// peers"): panva's oidc-provider on a free port of 127.0.0.1, over http, with its own users, a login
// form of our own (devInteractions off) and automatic consent, so that a script can sign in over
// HTTP with `loginAtUpstream` below. PKCE is required of every client and RP-initiated logout is on.

export type UpstreamUser = {
  sub: string;
  login: string;
  password: string;
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
};

export type UpstreamClient = {
  client_id: string;
  /** Absent: a public client (token_endpoint_auth_method `none`, PKCE only). */
  client_secret?: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
};

export type OidcUpstream = {
  issuer: string;
  port: number;
  users: UpstreamUser[];
  /** Registers another client while the peer runs. */
  addClient(c: UpstreamClient): Promise<void>;
  /** Requests seen per path (`/.well-known/openid-configuration`, `/token`, ...), to count discoveries. */
  requests: Map<string, number>;
  stop(): Promise<void>;
};

export const DEFAULT_UPSTREAM_USERS: UpstreamUser[] = [
  { sub: 'u-alice', login: 'alice', password: 'alice-pass-1', email: 'alice@upstream.test', email_verified: true, given_name: 'Alice', family_name: 'Liddell' },
  { sub: 'u-bob', login: 'bob', password: 'bob-pass-1', email: 'bob@upstream.test', email_verified: false, given_name: 'Bob', family_name: 'Builder' },
];

function clientMetadata(c: UpstreamClient): ClientMetadata {
  return {
    client_id: c.client_id,
    ...(c.client_secret ? { client_secret: c.client_secret, token_endpoint_auth_method: 'client_secret_basic' } : { token_endpoint_auth_method: 'none' }),
    redirect_uris: c.redirect_uris,
    post_logout_redirect_uris: c.post_logout_redirect_uris ?? [],
    grant_types: ['authorization_code'],
    response_types: ['code'],
  };
}

/**
 * The engine's storage, one per peer: a Map with expiry. Clients are read from `clients`, which
 * `addClient` fills (the engine looks up clients it was not configured with through the adapter).
 */
function memoryAdapter(clients: Map<string, ClientMetadata>): (model: string) => Adapter {
  const store = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  return (model) => {
    const key = (id: string) => `${model}:${id}`;
    const live = (k: string) => {
      const entry = store.get(k);
      return entry && entry.expiresAt > Date.now() ? entry.payload : undefined;
    };
    const entries = () => [...store.entries()].filter(([k]) => k.startsWith(`${model}:`));
    return {
      async upsert(id, payload, expiresIn) {
        store.set(key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
      },
      async find(id) {
        return model === 'Client' ? clients.get(id) : live(key(id));
      },
      async findByUid(uid) {
        const found = entries().find(([, e]) => e.payload.uid === uid);
        return found ? live(found[0]) : undefined;
      },
      async findByUserCode() {
        return undefined;
      },
      async consume(id) {
        const payload = live(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        store.delete(key(id));
      },
      async revokeByGrantId(grantId) {
        for (const [k, e] of entries()) if (e.payload.grantId === grantId) store.delete(k);
      },
    };
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(res: ServerResponse, body: string, status = 200): void {
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Upstream</title></head><body>${body}</body></html>`);
}

function loginForm(uid: string, problem?: string): string {
  return (
    (problem ? `<p role="alert">${escapeHtml(problem)}</p>` : '') +
    `<form id="login" method="post" action="/interaction/${uid}/login"><input name="login"><input name="password" type="password"><button>Sign in</button></form>` +
    `<form id="abort" method="post" action="/interaction/${uid}/abort"><button>Cancel</button></form>`
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export type OidcUpstreamOptions = {
  clients: UpstreamClient[];
  users?: UpstreamUser[];
  /** Put the profile and e-mail claims in the ID token too, instead of userinfo only (the engine's default). */
  claimsInIdToken?: boolean;
  /** Default true; false: the discovery document names no end_session_endpoint. */
  rpInitiatedLogout?: boolean;
};

export async function startOidcUpstream(options: OidcUpstreamOptions): Promise<OidcUpstream> {
  const users = options.users ?? DEFAULT_UPSTREAM_USERS;
  const clients = new Map(options.clients.map((c) => [c.client_id, clientMetadata(c)]));
  const requests = new Map<string, number>();
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  const signingKey = {
    ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    kid: 'upstream-1',
    alg: 'RS256',
    use: 'sig',
  };
  const configuration: Configuration = {
    adapter: memoryAdapter(clients),
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name', 'preferred_username'] },
    // The engine's default (true) puts scope-requested claims in userinfo only, not in the ID token.
    conformIdTokenClaims: !options.claimsInIdToken,
    findAccount: async (_ctx, id) => {
      const user = users.find((u) => u.sub === id);
      if (!user) return undefined;
      const { sub, email, email_verified, given_name, family_name } = user;
      return {
        accountId: sub,
        claims: async () => ({ sub, email, email_verified, given_name, family_name, name: `${given_name} ${family_name}`, preferred_username: user.login }),
      };
    },
    pkce: { required: () => true },
    // Explicit lifetimes (seconds), so the engine does not warn about its defaults.
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: options.rpInitiatedLogout ?? true,
        logoutSource: async (ctx, form) => {
          ctx.body = `<!DOCTYPE html><html><body>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button></body></html>`;
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.body = '<!DOCTYPE html><html><body>Signed out</body></html>';
        },
      },
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!DOCTYPE html><html><body><p id="error">${escapeHtml(String(out.error))}: ${escapeHtml(String(out.error_description ?? ''))}</p></body></html>`;
    },
  };
  const provider = new Provider(issuer, configuration);
  const engine = provider.callback();

  async function interaction(uid: string, action: string | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return page(res, 'Unknown interaction', 400);
    if (req.method === 'GET' && details.prompt.name === 'login') return page(res, loginForm(uid));
    if (req.method === 'GET' && details.prompt.name === 'consent') {
      // Automatic consent: grant every scope and claim the client asked for.
      const clientId = String(details.params.client_id);
      const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session?.accountId, clientId });
      if (!grant) return page(res, 'Grant expired', 400);
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await grant.save();
      return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    }
    if (req.method === 'POST' && action === 'login') {
      const form = await readForm(req);
      const user = users.find((u) => u.login === form.get('login') && u.password === form.get('password'));
      if (!user) return page(res, loginForm(uid, 'Wrong login or password.'));
      return provider.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });
    }
    if (req.method === 'POST' && action === 'abort') {
      return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person cancelled.' }, { mergeWithLastSubmission: false });
    }
    page(res, 'Not found', 404);
  }

  handle = (req, res) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const m = /^\/interaction\/([\w-]+)(?:\/(login|abort))?$/.exec(path);
    if (!m) return void engine(req, res);
    interaction(m[1], m[2], req, res).catch((err: unknown) => page(res, escapeHtml(err instanceof Error ? err.message : String(err)), 400));
  };

  return {
    issuer,
    port,
    users,
    requests,
    addClient: async (c) => {
      clients.set(c.client_id, clientMetadata(c));
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's cookies for one origin, honouring each cookie's path; enough for the peer's session and interaction cookies. */
export class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  store(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const pathAttr = attributes.find((a) => a.toLowerCase().startsWith('path='));
      const path = pathAttr ? pathAttr.slice(5) : '/';
      const expired = attributes.some((a) => /^expires=/i.test(a) && Date.parse(a.slice(8)) <= Date.now()) || attributes.some((a) => /^max-age=(0|-)/i.test(a));
      const key = `${name}|${path}`;
      if (expired || value === '') this.cookies.delete(key);
      else this.cookies.set(key, { name, value, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }
}

type Arrival = { redirect: string } | { url: URL; status: number; html: string };

/** Follows the upstream's redirects by hand, keeping its cookies, until a page or a redirect that leaves the upstream. */
async function browse(jar: CookieJar, start: URL, form?: URLSearchParams): Promise<Arrival> {
  const origin = start.origin;
  let url = start;
  let body = form;
  for (let hop = 0; hop < 20; hop++) {
    const headers: Record<string, string> = { cookie: jar.header(url) };
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, { method: body ? 'POST' : 'GET', headers, body, redirect: 'manual' });
    jar.store(res.headers.getSetCookie());
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return { url, status: res.status, html: await res.text() };
    await res.body?.cancel();
    const next = new URL(location, url);
    if (next.origin !== origin) return { redirect: next.href };
    url = next;
    body = undefined;
  }
  throw new Error('the upstream redirected too many times');
}

function formOf(html: string, id: string): { action: string; fields: URLSearchParams } | undefined {
  const form = new RegExp(`<form[^>]*id="${id.replace('.', '\\.')}"[^>]*>([\\s\\S]*?)</form>`).exec(html);
  const action = form && /action="([^"]+)"/.exec(form[0]);
  if (!form || !action) return undefined;
  const fields = new URLSearchParams();
  for (const m of form[1].matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields.set(m[1], m[2]);
  return { action: action[1], fields };
}

function unexpected(where: string, arrival: { status: number; html: string }): Error {
  const text = arrival.html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
  return new Error(`${where}: the upstream answered ${arrival.status}: ${text}`);
}

/**
 * Signs in at the upstream as a browser would: opens the authorization URL, submits the login form
 * and answers with the first redirect that leaves the upstream (our callback, with code and state,
 * or with error). Pass a jar to keep the upstream session for a later `logoutAtUpstream`.
 */
export async function loginAtUpstream(authorizationUrl: string, login: string, password: string, jar = new CookieJar()): Promise<string> {
  const first = await browse(jar, new URL(authorizationUrl));
  if ('redirect' in first) return first.redirect;
  const form = formOf(first.html, 'login');
  if (!form) throw unexpected('opening the authorization URL', first);
  const done = await browse(jar, new URL(form.action, first.url), new URLSearchParams({ login, password }));
  if ('redirect' in done) return done.redirect;
  throw unexpected('submitting the login form', done);
}

/** Opens the authorization URL and presses Cancel on the login form: the upstream answers `error=access_denied`. */
export async function cancelAtUpstream(authorizationUrl: string, jar = new CookieJar()): Promise<string> {
  const first = await browse(jar, new URL(authorizationUrl));
  if ('redirect' in first) throw new Error('the upstream signed in without asking');
  const form = formOf(first.html, 'abort');
  if (!form) throw unexpected('opening the authorization URL', first);
  const done = await browse(jar, new URL(form.action, first.url), new URLSearchParams());
  if ('redirect' in done) return done.redirect;
  throw unexpected('cancelling', done);
}

/**
 * Follows an RP-initiated logout URL and confirms the upstream's "sign out?" form. Answers the
 * redirect to the post_logout_redirect_uri, or the URL of the upstream's own "signed out" page.
 */
export async function logoutAtUpstream(endSessionUrl: string, jar = new CookieJar()): Promise<string> {
  const first = await browse(jar, new URL(endSessionUrl));
  if ('redirect' in first) return first.redirect;
  const form = formOf(first.html, 'op.logoutForm');
  if (!form) throw unexpected('opening the end-session URL', first);
  form.fields.set('logout', 'yes');
  const done = await browse(jar, new URL(form.action, first.url), form.fields);
  if ('redirect' in done) return done.redirect;
  if (done.status !== 200) throw unexpected('confirming the logout', done);
  return done.url.href;
}
