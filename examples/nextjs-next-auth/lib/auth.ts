import { getServerSession, type NextAuthOptions, type Session } from 'next-auth';
import { connection } from 'next/server';
import type { OAuthConfig } from 'next-auth/providers/oauth';

// The userinfo claims Gatehouse returns for the scopes this app asks for ('openid profile email').
type GatehouseProfile = {
  sub: string;
  name?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
};

function required(name: string): string {
  const value = process.env[name];
  // Failing at the first request names the missing setting, instead of an opaque OAuth error later.
  if (!value) throw new Error(`${name} is not set (see README.md)`);
  return value;
}

/** Gatehouse as an OpenID Connect provider: discovery, authorization code with PKCE and state. */
function gatehouse(): OAuthConfig<GatehouseProfile> {
  // The realm's issuer is its origin, e.g. http://localhost:3000 or https://id.example.com; a
  // trailing slash would make discovery's issuer comparison fail.
  const issuer = required('GATEHOUSE_ISSUER').replace(/\/+$/, '');
  return {
    id: 'gatehouse',
    name: 'Gatehouse',
    type: 'oauth',
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    clientId: required('GATEHOUSE_CLIENT_ID'),
    clientSecret: required('GATEHOUSE_CLIENT_SECRET'),
    authorization: { params: { scope: 'openid profile email' } },
    // The id_token is verified (signature against the realm's JWKS, issuer, audience, expiry).
    idToken: true,
    checks: ['pkce', 'state'],
    userinfo: {
      // Gatehouse keeps the id_token small when an access token is issued too (OpenID Connect
      // Core 5.4): name and e-mail come from the userinfo endpoint, so the profile is read there.
      async request({ client, tokens }) {
        if (!tokens.access_token) throw new Error('Gatehouse answered without an access token');
        return client.userinfo<GatehouseProfile>(tokens.access_token);
      },
    },
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.email ?? null,
      };
    },
  };
}

let options: NextAuthOptions | undefined;

/**
 * next-auth's options, made at the first request rather than at import: `next build` imports the
 * routes, and the settings belong to where the app runs, not to where it is built.
 */
export function authOptions(): NextAuthOptions {
  options ??= {
    providers: [gatehouse()],
    secret: required('NEXTAUTH_SECRET'),
    // The app's home page has the sign-in button; next-auth's own sign-in page is never shown.
    pages: { signIn: '/' },
    session: { strategy: 'jwt' },
  };
  return options;
}

/** The signed-in user's session, or null; for server components. */
export async function currentSession(): Promise<Session | null> {
  // A page that reads the session belongs to a request: saying so first keeps `next build` from
  // prerendering it (and from reading the settings, which it does not have).
  await connection();
  return getServerSession(authOptions());
}
