import type { ControlPlanePermission, MainAppPermission } from '../authz/catalog';
import type { EventPayloads, EventType } from '../events/catalog';
import type { DomainEvent } from '../events/types';

// Which committed mutation the console hears about, and who may hear it (docs/realtime.md). Every
// event of the catalog has an entry: a `changed` message or `null` (attempts, mail, sign-in steps:
// nothing an admin list shows). A new event name does not compile until it is placed here.

export type ChangeAction = 'created' | 'updated' | 'deleted';

/** The permission a person needs to hear of a change: one of the main App's, or of the control plane's. */
export type ReadPermission = MainAppPermission | { app: 'control-plane'; permission: ControlPlanePermission };

type Change<K extends EventType> = {
  /** The admin resource name the console's lists use. */
  resource: string;
  action: ChangeAction;
  read: ReadPermission;
  /** The changed resource's id when it is not the event's subject (defaults to `subjectId`). */
  id?: (data: EventPayloads[K]) => string | undefined;
};

type ChangeMap = { [K in EventType]: Change<K> | null };

const REALM_READ: ReadPermission = { app: 'control-plane', permission: 'realm:read' };
const PLATFORM_READ: ReadPermission = { app: 'control-plane', permission: 'realm:admin' };

const user = (action: ChangeAction) => ({ resource: 'user', action, read: 'user:read' }) as const;
const userOf = (action: ChangeAction) => ({ ...user(action), id: (d: { userId: string }) => d.userId });
/** A person's sessions changed: the id is the person's (their session list is what the console shows). */
const sessions = (action: ChangeAction) => ({ resource: 'session', action, read: 'session:read' }) as const;
const own = <R extends string, P extends MainAppPermission>(resource: R, read: P) =>
  ({
    created: { resource, action: 'created', read },
    updated: { resource, action: 'updated', read },
    deleted: { resource, action: 'deleted', read },
  }) as const;

const app = own('app', 'app:read');
const group = own('authorization-group', 'authorization-group:read');
const role = own('permission-role', 'permission-role:read');
const inviteCode = own('invite-code', 'invite-code:read');
const loginProvider = own('login-provider', 'login-provider:read');
const oauthApi = own('oauth-api', 'oauth-api:read');
const oauthClient = own('oauth-client', 'oauth-client:read');
const oauthScope = own('oauth-scope', 'oauth-scope:read');
const position = own('position', 'position:read');
const serviceAccount = own('service-account', 'service-account:read');
const realm = (action: ChangeAction) => ({ resource: 'realm', action, read: REALM_READ });
const credentialOf = { ...serviceAccount.updated, id: (d: { serviceAccountId: string }) => d.serviceAccountId };

export const CHANGES: ChangeMap = {
  'account.data-exported': null,
  'account.deleted': userOf('deleted'),
  'account.deletion-cancelled': userOf('updated'),
  'account.deletion-request-failed': null,
  'account.deletion-requested': userOf('updated'),

  'auth.bootstrap-admin-redeemed': null,
  'auth.client-session-revoked': sessions('deleted'),
  'auth.email-otp-failed': null,
  'auth.email-otp-requested': null,
  'auth.login-blocked-secure-setup': null,
  'auth.external-login-refused': null,
  'auth.login-failed': null,
  'auth.login-succeeded': sessions('created'),
  'auth.logout': sessions('deleted'),
  'auth.magic-link-failed': null,
  'auth.magic-link-requested': null,
  'auth.mail-failed': null,
  'auth.other-sessions-revoked': sessions('deleted'),
  'auth.passkey-added': user('updated'),
  'auth.passkey-registration-failed': null,
  'auth.passkey-removed': user('updated'),
  'auth.passkeys-invalidated': null,
  'auth.password-change-failed': null,
  'auth.password-changed': userOf('updated'),
  'auth.password-reset': userOf('updated'),
  'auth.password-reset-failed': null,
  'auth.password-reset-requested': null,
  'auth.second-factor-code-sent': null,
  'auth.second-factor-failed': null,
  'auth.second-factor-required': null,
  'auth.session-revoked': sessions('deleted'),
  'auth.signed-out-everywhere': sessions('deleted'),
  'auth.totp-setup-started': null,
  'auth.totp-verify-failed': null,
  'auth.two-factor-disable-failed': null,
  'auth.two-factor-disabled': user('updated'),
  'auth.two-factor-enabled': user('updated'),

  'app.created': app.created,
  'app.deleted': app.deleted,
  'app.updated': app.updated,

  'external-link.linked': userOf('updated'),
  'external-link.removed': userOf('updated'),
  'group.created': group.created,
  'group.deleted': group.deleted,
  'group.updated': group.updated,
  // A manifest may have created, changed and removed many resources at once: the console refreshes everything.
  'manifest.applied': { resource: 'realm-config', action: 'updated', read: 'realm:admin' },

  'membership.added': { ...group.updated, id: (d) => d.groupId },
  'membership.removed': { ...group.updated, id: (d) => d.groupId },
  'role.created': role.created,
  'role.deleted': role.deleted,
  'role.updated': role.updated,

  'invite.code-redeemed': inviteCode.updated,
  'invite.code-revoked': inviteCode.updated,
  'invite.codes-minted': inviteCode.created,

  'login-provider.created': loginProvider.created,
  'login-provider.deleted': loginProvider.deleted,
  'login-provider.secret-set': loginProvider.updated,
  'login-provider.updated': loginProvider.updated,
  'oauth-api.created': oauthApi.created,
  'oauth-api.deleted': oauthApi.deleted,
  'oauth-api.updated': oauthApi.updated,
  'oauth-client.created': oauthClient.created,
  'oauth-client.deleted': oauthClient.deleted,
  'oauth-client.secret-regenerated': oauthClient.updated,
  'oauth-client.updated': oauthClient.updated,
  'oauth-scope.created': oauthScope.created,
  'oauth-scope.deleted': oauthScope.deleted,
  'oauth-scope.updated': oauthScope.updated,
  // The reuse revoked one of the person's client sessions (the subject is the person, when known).
  'oauth-token.reused': sessions('deleted'),
  'signing-key.rotated': { resource: 'signing-key', action: 'updated', read: 'realm:admin' },

  'position.created': position.created,
  'position.deleted': position.deleted,
  'position.updated': position.updated,

  'projections.rebuilt': null,
  'platform-settings.updated': { resource: 'platform-settings', action: 'updated', read: PLATFORM_READ },

  'realm-settings.updated': { resource: 'realm-settings', action: 'updated', read: 'realm:admin' },
  'realm.activated': realm('updated'),
  'realm.admin-invite-issued': realm('updated'),
  'realm.control-plane-transferred': realm('updated'),
  'realm.created': realm('created'),
  'realm.deactivated': realm('updated'),
  'realm.deleted': realm('deleted'),
  'realm.primary-domain-changed': realm('updated'),
  'realm.updated': realm('updated'),

  'service-account.created': serviceAccount.created,
  'service-account.credential-created': credentialOf,
  'service-account.credential-deleted': credentialOf,
  'service-account.credential-rotated': credentialOf,
  'service-account.credential-updated': credentialOf,
  'service-account.deleted': serviceAccount.deleted,
  'service-account.updated': serviceAccount.updated,

  'user.activated': user('updated'),
  'user.administrator-recovered': user('updated'),
  'user.change-approved': userOf('updated'),
  'user.change-cancelled': userOf('updated'),
  'user.change-email-verified': userOf('updated'),
  'user.change-rejected': userOf('updated'),
  'user.change-requested': userOf('updated'),
  'user.created': user('created'),
  'user.deactivated': user('updated'),
  'user.deleted': user('deleted'),
  'user.erased': user('deleted'),
  'user.email-verification-failed': null,
  'user.email-verification-sent': null,
  'user.email-verified': user('updated'),
  'user.grace-period-cleared': user('updated'),
  'user.grace-period-reset': user('updated'),
  'user.magic-link-sent': null,
  'user.passkeys-removed': user('updated'),
  'user.password-set': user('updated'),
  'user.registered': user('created'),
  'user.registration-for-existing-account': null,
  'user.registration-name-taken': null,
  'user.registration-requested': null,
  'user.restored': user('updated'),
  'user.sessions-revoked': sessions('deleted'),
  'user.two-factor-policy-changed': user('updated'),
  'user.two-factor-reset': user('updated'),
  'user.updated': user('updated'),
};

/**
 * Events after which a person's sessions may have ended (the event's subject is that person): their
 * hub connections are checked against the session store and closed when it is gone.
 */
export const SESSION_ENDING: ReadonlySet<EventType> = new Set<EventType>([
  'account.deleted',
  'auth.login-succeeded', // a sign-in in the same browser replaces the browser's earlier session
  'auth.logout',
  'auth.other-sessions-revoked',
  'auth.password-changed',
  'auth.password-reset',
  'auth.session-revoked',
  'auth.signed-out-everywhere',
  'user.deactivated',
  'user.deleted',
  'user.erased',
  'user.password-set',
  'user.sessions-revoked',
]);

/** Events that end every connection of the realm they name (their subject): it no longer serves. */
export const REALM_ENDING: ReadonlySet<EventType> = new Set<EventType>(['realm.deactivated', 'realm.deleted']);

/** What a change tells the console: the wire shape of the `changed` argument. */
export type ChangedMessage = { Resource: string; Action: ChangeAction; Id?: string };

/** The `changed` message for an event, with the permission needed to hear it, or null. */
export function changeOf(event: DomainEvent): { message: ChangedMessage; read: ReadPermission } | null {
  const change = CHANGES[event.type] as Change<EventType> | null;
  if (!change) return null;
  const id = change.id ? change.id(event.data) : event.subjectId;
  return { message: { Resource: change.resource, Action: change.action, ...(id ? { Id: id } : {}) }, read: change.read };
}
