import type { AnyEndpoint, HttpMethod } from '../http/endpoint';
import type { CatalogEntry } from '../http/openapi';
import * as accountEndpoints from './account-endpoints';
import { flagRouteGroups } from './flag-routes';
import * as appEndpoints from './app-endpoints';
import * as changeRequestEndpoints from './change-request-endpoints';
import * as emailOtpEndpoints from './email-otp-endpoints';
import * as nativeEndpoints from './native-endpoints';
import * as sessionEndpoints from './session-endpoints';
import * as emailVerificationEndpoints from './email-verification-endpoints';
import * as externalLinkEndpoints from './external-link-endpoints';
import * as externalLoginEndpoints from './external-login-endpoints';
import * as loginProviderEndpoints from './login-provider-endpoints';
import * as groupEndpoints from './group-endpoints';
import * as inviteCodeEndpoints from './invite-code-endpoints';
import * as logEndpoints from './log-endpoints';
import * as passkeyEndpoints from './passkey-endpoints';
import * as magicLinkEndpoints from './magic-link-endpoints';
import * as maintenanceEndpoints from './maintenance-endpoints';
import * as manifestEndpoints from './manifest-endpoints';
import * as mfaEndpoints from './mfa-endpoints';
import * as oauthApiEndpoints from './oauth-api-endpoints';
import * as oauthClientEndpoints from './oauth-client-endpoints';
import * as oauthScopeEndpoints from './oauth-scope-endpoints';
import * as passwordEndpoints from './password-endpoints';
import * as positionEndpoints from './position-endpoints';
import * as principalEndpoints from './principal-endpoints';
import * as privacyEndpoints from './privacy-endpoints';
import * as profileRequestEndpoints from './profile-request-endpoints';
import * as publicEndpoints from './public-endpoints';
import * as realmEndpoints from './realm-endpoints';
import * as realmSettingsEndpoints from './realm-settings-endpoints';
import * as registrationEndpoints from './registration-endpoints';
import * as roleEndpoints from './role-endpoints';
import * as samlEndpoints from './saml-endpoints';
import * as serviceAccountCredentialEndpoints from './service-account-credential-endpoints';
import * as serviceAccountEndpoints from './service-account-endpoints';
import * as userEndpoints from './user-endpoints';
import * as userSecurityEndpoints from './user-security-endpoints';

// Every endpoint declaration of the REST surface, collected from the `lib/api/*-endpoints.ts`
// modules (docs/architecture.md "One contract, typed end to end"). The OpenAPI document is generated from
// this list; catalog.test.ts fails when an endpoints module is not imported here or when a route
// under app/api binds an endpoint the catalog does not hold.
//
// Adding an endpoints module: import it above and list it in MODULES under its file stem.
const MODULES: Record<string, Record<string, unknown>> = {
  account: accountEndpoints,
  app: appEndpoints,
  'change-request': changeRequestEndpoints,
  'email-otp': emailOtpEndpoints,
  native: nativeEndpoints,
  session: sessionEndpoints,
  'email-verification': emailVerificationEndpoints,
  'external-link': externalLinkEndpoints,
  'external-login': externalLoginEndpoints,
  'login-provider': loginProviderEndpoints,
  group: groupEndpoints,
  'invite-code': inviteCodeEndpoints,
  log: logEndpoints,
  passkey: passkeyEndpoints,
  'magic-link': magicLinkEndpoints,
  maintenance: maintenanceEndpoints,
  manifest: manifestEndpoints,
  mfa: mfaEndpoints,
  'oauth-api': oauthApiEndpoints,
  'oauth-client': oauthClientEndpoints,
  'oauth-scope': oauthScopeEndpoints,
  password: passwordEndpoints,
  position: positionEndpoints,
  principal: principalEndpoints,
  privacy: privacyEndpoints,
  'profile-request': profileRequestEndpoints,
  public: publicEndpoints,
  realm: realmEndpoints,
  'realm-settings': realmSettingsEndpoints,
  registration: registrationEndpoints,
  role: roleEndpoints,
  saml: samlEndpoints,
  'service-account': serviceAccountEndpoints,
  'service-account-credential': serviceAccountCredentialEndpoints,
  user: userEndpoints,
  'user-security': userSecurityEndpoints,
};

const METHODS: ReadonlySet<string> = new Set<HttpMethod>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** True for a value made by defineEndpoint (modules may also export schemas and helpers). */
function isEndpoint(value: unknown): value is AnyEndpoint {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.method === 'string' &&
    METHODS.has(v.method) &&
    typeof v.path === 'string' &&
    v.path.startsWith('/') &&
    typeof v.summary === 'string' &&
    Array.isArray(v.tags) &&
    typeof v.auth === 'string' &&
    typeof v.handler === 'function'
  );
}

function collect(modules: Record<string, Record<string, unknown>>): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  const seen = new Set<AnyEndpoint>();
  for (const [module, exports] of Object.entries(modules)) {
    for (const [exportName, value] of Object.entries(exports)) {
      // An endpoint re-exported under a second name is still one operation.
      if (!isEndpoint(value) || seen.has(value)) continue;
      seen.add(value);
      entries.push({ module, exportName, endpoint: value });
    }
  }
  return entries;
}

/** Module stems imported above, so a test can compare them with the files in lib/api. */
export const catalogModules: readonly string[] = Object.keys(MODULES);

/** The flag and entitlement evaluation routes (spec 4.10): one declaration per registered property. */
function flagEntries(): CatalogEntry[] {
  return flagRouteGroups.flatMap((group) => group.endpoints.map(({ exportName, endpoint }) => ({ module: 'flag-routes', exportName, endpoint })));
}

export const catalogEntries: readonly CatalogEntry[] = [...collect(MODULES), ...flagEntries()];
