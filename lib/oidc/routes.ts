// The engine's paths, all under /connect and /.well-known (issue 4.1); server.ts dispatches them to
// the realm's provider (lib/runtime/engine-paths.ts decides which paths are the engine's).
export const OIDC_ROUTES = {
  authorization: '/connect/authorize',
  token: '/connect/token',
  userinfo: '/connect/userinfo',
  introspection: '/connect/introspect',
  revocation: '/connect/revocation',
  end_session: '/connect/endsession',
  device_authorization: '/connect/deviceauthorization',
  code_verification: '/connect/device',
  pushed_authorization_request: '/connect/par',
  registration: '/connect/register',
  jwks: '/.well-known/jwks',
  backchannel_authentication: '/connect/backchannel',
  challenge: '/connect/challenge',
  credential: '/connect/credential',
} as const;

/** Where the engine sends the browser when it needs a person (sign-in bridge, consent). */
export const INTERACTION_PREFIX = '/connect/interaction/';

export function interactionPath(uid: string): string {
  return `${INTERACTION_PREFIX}${uid}`;
}

export const OIDC_COOKIE_NAMES = {
  session: 'gatehouse_oidc',
  interaction: 'gatehouse_interaction',
  resume: 'gatehouse_interaction_resume',
};
