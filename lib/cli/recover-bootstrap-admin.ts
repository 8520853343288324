import { hashPassword } from '../auth/passwords';
import { assertPasswordAllowed } from '../domain/users/password-rules';
import { userFieldRules } from '../domain/users/schemas';
import { getRealmDb } from '../db/realm-pool';
import { domainContext } from '../realm/context';
import { issueInviteFor } from '../domain/invites/issue-realm-admin-invite';
import { upsertAdministrator } from '../domain/invites/redeem-admin-invite';
import { endSignIns } from '../domain/sessions/end-sign-ins';
import { publish } from '../events/bus';
import { eventFrom } from '../events/event-from';
import { getControlPlaneRealm, getRealmRecordBySlug } from '../realm/realm-store';

// `gatehouse recover bootstrap-admin --email E [--username U] [--realm SLUG] [--password P]`
// (CONTRACT.md, spec 5.8): without --password it issues the single-use 24-hour invite and prints its
// URL alone on a line of stdout; with --password it creates or resets the administrator directly.
export async function recoverBootstrapAdmin(options: Record<string, string | true>, out: (line: string) => void): Promise<void> {
  const email = typeof options.email === 'string' ? options.email : '';
  // The admin API's own field rules; the identifiers' uniqueness is checked where the row is written (insertUser).
  if (!userFieldRules.email.safeParse(email).success) throw new Error('--email must be an e-mail address');
  const userName = typeof options.username === 'string' ? options.username : email;
  if (userName !== userName.trim() || !userFieldRules.userName.safeParse(userName).success) {
    throw new Error('--username must be a user name: no spaces or control characters, at most 128 characters');
  }
  const realm = typeof options.realm === 'string' ? await getRealmRecordBySlug(options.realm) : await getControlPlaneRealm();
  if (!realm) throw new Error(typeof options.realm === 'string' ? `no realm with slug ${options.realm}` : 'no control-plane realm');
  const ctx = domainContext(realm, { kind: 'system', reason: 'cli recover bootstrap-admin' });

  if (options.password === undefined) {
    const invite = await issueInviteFor(ctx, realm, { UserName: userName, Email: email });
    out(invite.MagicLinkUrl);
    return;
  }
  if (options.password === true) throw new Error('--password needs a value');
  try {
    await assertPasswordAllowed(realm, options.password, { userName, email });
  } catch (e) {
    const reasons = (e as { errors?: Record<string, string[]> }).errors?.Password ?? [];
    throw new Error(`password rejected: ${reasons.join(' ')}`, { cause: e });
  }
  const passwordHash = await hashPassword(options.password);
  const db = await getRealmDb(realm.databaseName);
  const userId = await db.$transaction((tx) => upsertAdministrator(tx, { userName, email, passwordHash }));
  await endSignIns(db, userId);
  await publish(eventFrom(ctx, 'user.administrator-recovered', userId, { userId, userName }));
  out(`administrator ${userName} of realm ${realm.slug} is ready; sign in at the realm's /login page`);
}
