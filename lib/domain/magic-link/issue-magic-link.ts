import { publicOrigin } from '../../config/env';
import type { RealmDb } from '../../db/types';
import { magicLinkMail } from '../../mail/templates/magic-link';
import { realmMail, type MailScope } from '../realm-mail/realm-mail';
import type { MailMessage } from '../../mail/transport';
import type { RealmRecord } from '../../realm/realm-record';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { secretPurposes } from '../one-time-secrets/purposes';

// A magic sign-in link (spec 4.3): a 256-bit single-use token, valid 15 minutes, one live link per
// user (a new one revokes the earlier). The continuation travels in the secret's data, not in the
// link. `via` records who asked: a self-service link stops working when the realm turns magic
// links off; one an administrator sent does not depend on that setting.
export type MagicLinkData = { redirect?: string; via: 'self' | 'admin' };

export function magicLinkUrl(realm: RealmRecord, token: string, userId: string): string {
  const q = new URLSearchParams({ token, user: userId });
  return `${publicOrigin(realm.primaryDomain)}/api/account/magic-link/login?${q.toString()}`;
}

export async function issueMagicLink(
  scope: MailScope,
  db: RealmDb,
  user: { id: string; email: string },
  data: MagicLinkData,
): Promise<{ expiresAt: Date; message: MailMessage }> {
  const { secret, expiresAt } = await issueSecret(db, { purpose: 'magic-link', userId: user.id, data, replacePrevious: true });
  const url = magicLinkUrl(scope.realm, secret, user.id);
  const message = await realmMail(scope, user.email, (b) =>
    magicLinkMail(b, { url, lifetimeMinutes: secretPurposes['magic-link'].ttlMinutes, sentByAdministrator: data.via === 'admin' }),
  );
  return { expiresAt, message };
}
