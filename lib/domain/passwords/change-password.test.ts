import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealmDb } from '../../db/types';
import { tempRealmDb } from '../../testing/temp-realm-db';
import { unitRealm } from '../../testing/unit-realm';
import { domainContext } from '../../realm/context';
import { insertUser } from '../users/insert-user';
import { changePassword } from './change-password';

// An account without a password (passkey, e-mail code or external sign-in only) cannot change one:
// it sets one through forgot-password. Its session comes from sign-in methods the HTTP tests of
// this area do not drive, so the rule is checked here.
let db: RealmDb;
let name: string;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ db, name, dispose } = await tempRealmDb());
});
afterAll(async () => dispose());

describe('changePassword', () => {
  it('answers Password.NotSet for an account without a password', async () => {
    const { id } = await insertUser(db, unitRealm(name), { userName: 'nopw', email: 'nopw@example.test' });
    const ctx = domainContext(unitRealm(name), { kind: 'user', userId: id, userName: 'nopw', sessionId: null });
    await expect(changePassword(ctx, { currentPassword: 'anything', newPassword: 'a much stronger passphrase 9' })).rejects.toMatchObject({
      code: 'Password.NotSet',
    });
  });

  it('answers 401 to anonymous callers', async () => {
    const ctx = domainContext(unitRealm(name), { kind: 'anonymous' });
    await expect(changePassword(ctx, { currentPassword: 'x', newPassword: 'y' })).rejects.toMatchObject({ code: 'Auth.Unauthenticated' });
  });
});
