// Every domain event Gatehouse publishes, declared once with the facts it carries (docs/architecture.md:
// one event per mutation, names `area.verbed`, data PII-free). `eventFrom` accepts only these names
// with their payload, and subscribers match areas with `inEventAreas`, so a misspelt, renamed or
// removed event breaks the build where it is published and where it is listened for.
//
// Two fields are read by the log subscribers across events: `success: false` marks a failed attempt
// in the security log, and `userId` / `userName` name the person when no actor does.

/** A refused or failed attempt, as the security log records it. */
type Failed<T = object> = T & { success: false; reason: string };
/** The person an event is about, where the actor is not (anonymous flows, the CLI). */
type Person = { userId: string; userName: string };
type MaybePerson = { userId?: string; userName?: string };
type MailFailed = { success: false; purpose: string; userId?: string; requestId?: string };
/** How a client was written when not through the admin API. */
type ClientChannel = 'dynamic-registration';
/** What a replayed one-time OAuth credential was (the grant type it is redeemed with). */
export type ReusedTokenKind = 'authorization_code' | 'refresh_token' | 'device_code';

export type EventPayloads = {
  // Privacy rights (security log: Privacy; spec 3.5, 4.6). `userId` names the person, never more.
  'account.data-exported': { userId: string };
  'account.deleted': { userId: string; engineRecordsRevoked: number };
  'account.deletion-cancelled': { userId: string };
  'account.deletion-request-failed': Failed<{ userId: string }>;
  'account.deletion-requested': { userId: string; expiresAt: string };

  // Sign-in, sessions and credentials (security log: Authentication).
  'auth.bootstrap-admin-redeemed': Person;
  'auth.client-session-revoked': { grantId: string };
  'auth.email-otp-failed': Failed<MaybePerson>;
  'auth.email-otp-requested': MaybePerson & { knownAddress: boolean };
  'auth.login-blocked-secure-setup': Person & { success: false };
  'auth.external-login-refused': Failed<{ userId?: string; loginProviderId: string; provider: string }>;
  'auth.login-failed': Failed<{ userName?: string; method?: string }>;
  'auth.login-succeeded': { method: string; provider?: string; loginProviderId?: string };
  'auth.logout': undefined;
  'auth.magic-link-failed': Failed<{ userId?: string }>;
  'auth.magic-link-requested': MaybePerson & { knownAddress: boolean };
  'auth.mail-failed': MailFailed;
  'auth.other-sessions-revoked': { count: number };
  'auth.passkey-added': { passkeyId: string; deviceType: string; backedUp: boolean };
  'auth.passkey-registration-failed': { success: false };
  'auth.passkey-removed': { passkeyId: string };
  'auth.passkeys-invalidated': { count: number; rpId: string };
  'auth.password-change-failed': Failed<{ userId: string }>;
  'auth.password-changed': { userId: string; sessionsRevoked: number; engineRecordsRevoked: number };
  'auth.password-reset': Person & { sessionsRevoked: number; engineRecordsRevoked: number };
  'auth.password-reset-failed': Failed<{ userId?: string }>;
  'auth.password-reset-requested': (Person & { withRedirect: boolean }) | Failed;
  'auth.second-factor-code-sent': Person & { method: string };
  'auth.second-factor-failed': Failed<MaybePerson & { method: string }>;
  'auth.second-factor-required': Person & { method: string };
  'auth.session-revoked': { sessionId: string };
  'auth.signed-out-everywhere': { browserSessions: number; engineRecords: number };
  'auth.totp-setup-started': Person & { setupOnly: boolean };
  'auth.totp-verify-failed': Failed<Person>;
  'auth.two-factor-disable-failed': Failed<Person>;
  'auth.two-factor-disabled': Person & { method: string };
  'auth.two-factor-enabled': Person & { method: string };

  // Applications (Authorization; the group graph, App settings and realm records are refreshed).
  'app.created': { appId: string; slug: string; sections: string[]; routed: boolean };
  'app.deleted': { appId: string; slug: string; removedInviteCodes: number };
  'app.updated': { appId: string; slug: string; changed: string[]; sections: string[]; routed: boolean };

  // Groups, roles and memberships (Authorization; the group graph is rebuilt).
  'external-link.linked': { userId: string; linkId: string; loginProviderId: string; provider: string; how: 'signed-in' | 'verified-email' | 'jit' };
  'external-link.removed': { userId: string; linkId: string; loginProviderId: string; byAdmin: boolean };
  'group.created': { groupId: string; boundTo: string[]; roleCount: number; parentCount: number };
  'group.deleted': { groupId: string; memberCount: number; childCount: number; roleCount: number };
  'group.updated': { groupId: string; renamed: boolean; boundTo?: string[]; roleCount: number; parentCount: number };
  // Realm manifests (security log: Configuration; every cache of the realm's structure is dropped).
  'manifest.applied': { prune: boolean; created: number; updated: number; deleted: number; newClientSecrets: number };

  'membership.added': { userId: string; groupId: string };
  'membership.removed': { userId: string; groupId: string };
  'role.created': { roleId: string; app: string; permissionCount: number };
  'role.deleted': { roleId: string; app: string; groupCount: number };
  'role.updated': { roleId: string; app: string; appChanged: boolean; permissionCount: number };

  // Invite codes (Authentication).
  'invite.code-redeemed': { appId: string; userId: string };
  'invite.code-revoked': { appId: string };
  'invite.codes-minted': { appId: string; count: number; expiresAt: string | null };

  // OAuth (OAuth; the engine's caches are rebuilt).
  'login-provider.created': { loginProviderId: string; flavor: string };
  'login-provider.deleted': { loginProviderId: string; flavor: string; removedLinks: number };
  'login-provider.secret-set': { loginProviderId: string; flavor: string };
  'login-provider.updated': { loginProviderId: string; flavor: string };
  'oauth-api.created': { audience: string };
  'oauth-api.deleted': { audience: string };
  'oauth-api.updated': { audience: string; changed: string[] };
  // `via` marks a change made through dynamic client registration (RFC 7591/7592), not the admin API.
  'oauth-client.created': {
    clientId: string;
    clientType: string;
    grantTypes: readonly string[];
    positionId?: string;
    serviceAccountId?: string;
    via?: ClientChannel;
  };
  'oauth-client.deleted': { clientId: string; revokedTokens: number; via?: ClientChannel };
  'oauth-client.secret-regenerated': { clientId: string };
  'oauth-client.updated': { clientId: string; changed: string[]; revokedTokens: number; via?: ClientChannel };
  'oauth-scope.created': { name: string; resources: string[] };
  'oauth-scope.deleted': { name: string };
  'oauth-scope.updated': { name: string; previousName?: string; changed: string[] };
  // A spent authorization code, refresh token or device code presented again: the engine revoked the
  // grant it belongs to (its token family). `grantId` is the grant's stored digest (the client
  // session's Id), `userId` the person whose grant it was; never the token.
  'oauth-token.reused': Failed<{ clientId: string; kind: ReusedTokenKind; grantId?: string; userId?: string }>;
  'signing-key.rotated': { keyIds: string[]; retiredKeyIds: string[] };

  // Positions and their terminals (Authorization).
  'position.created': { positionId: string; isActive: boolean };
  'position.deleted': { positionId: string };
  'position.updated': { positionId: string; changed: string[] };

  // Maintenance: derived stores recomputed (every cache is dropped, here and on other instances).
  'projections.rebuilt': { stores: string[]; changes: number };
  // The platform's own settings (platform audit).
  'platform-settings.updated': { platformAuditDays: number };

  // Realms (platform audit; `slug` names the realm the event is about).
  'realm-settings.updated': { sections: string[] };
  'realm.activated': { slug: string };
  'realm.admin-invite-issued': { slug: string; inviteId: string };
  'realm.control-plane-transferred': { from: string; to: string };
  'realm.created': { slug: string; initialAdmin: boolean };
  'realm.deactivated': { slug: string; via?: string };
  'realm.deleted': { slug: string; hard: boolean };
  'realm.primary-domain-changed': { slug: string };
  'realm.updated': { slug: string; changed: string[] };

  // Service accounts and their credentials (Authorization; the client cache is dropped).
  'service-account.created': { serviceAccountId: string; groupCount: number; isActive: boolean };
  'service-account.credential-created': { serviceAccountId: string; credentialId: string; clientId: string; scopes: string[]; expiresAt: string | null };
  'service-account.credential-deleted': { serviceAccountId: string; credentialId: string; tokensRevoked: number };
  'service-account.credential-rotated': { serviceAccountId: string; credentialId: string; tokensRevoked: number };
  'service-account.credential-updated': { serviceAccountId: string; credentialId: string; changed: string[]; scopes?: string[]; expiresAt?: string | null };
  'service-account.deleted': { serviceAccountId: string; credentialCount: number; clientCount: number; groupCount: number; tokensRevoked: number };
  'service-account.updated': { serviceAccountId: string; changed: string[]; groupCount?: number; isActive?: boolean; tokensRevoked?: number };

  // Users (UserAdministration).
  'user.activated': { userId: string };
  'user.administrator-recovered': Person;
  'user.change-approved': { userId: string; requestId: string; fields: string[] };
  'user.change-cancelled': { userId: string; requestId: string };
  'user.change-email-verified': { userId: string; requestId: string };
  'user.change-rejected': { userId: string; requestId: string; withReason: boolean };
  'user.change-requested': { userId: string; requestId: string; fields: string[]; status: string; addressTaken?: boolean };
  'user.created': { userId: string; hasPassword: boolean; isActive: boolean };
  'user.deactivated': { userId: string };
  'user.deleted': { userId: string; sessionsRevoked: number; engineRecordsRevoked: number; bulk: boolean };
  'user.erased': { userId: string; reason: string };
  'user.email-verification-failed': Failed<{ userId?: string }>;
  'user.email-verification-sent': { userId: string };
  'user.email-verified': { userId: string };
  'user.grace-period-cleared': { userId: string };
  'user.grace-period-reset': { userId: string; days: number; dueAt: string };
  'user.magic-link-sent': { userId: string };
  'user.passkeys-removed': { userId: string; count: number; passkeyId?: string; graceDueAt?: string };
  'user.password-set': { userId: string; sessionsRevoked: number; engineRecordsRevoked: number };
  'user.registered': { userId: string; hasPassword: boolean; appId: string; inviteCode: boolean; posture?: string };
  'user.registration-for-existing-account': { userId: string };
  'user.registration-name-taken': { appId: string };
  'user.registration-requested': { hasPassword: boolean; inviteCode: boolean; appId: string };
  'user.restored': { userId: string; bulk: boolean };
  'user.sessions-revoked': { userId: string; browserSessions: number; engineRecords: number };
  'user.two-factor-policy-changed': { userId: string; from: string; to: string };
  'user.two-factor-reset': { userId: string; hadAuthenticator: boolean; graceDueAt?: string };
  'user.updated': { userId: string; changed: string[] };
};

/** Every event name. */
export type EventType = keyof EventPayloads;

/** Events that carry no data. */
export type BareEventType = { [K in EventType]: EventPayloads[K] extends undefined ? K : never }[EventType];

type AreaOf<T extends string> = T extends `${infer Area}.${string}` ? Area : never;
/** The part of an event name before the first dot: `realm` for `realm.created`, `realm-settings` for `realm-settings.updated`. */
export type EventArea = AreaOf<EventType>;

/** True when the event belongs to one of the areas (the typed form of `/^(group|role)\./`). */
export function inEventAreas(type: EventType, areas: readonly EventArea[]): boolean {
  return areas.some((area) => type.startsWith(`${area}.`));
}
