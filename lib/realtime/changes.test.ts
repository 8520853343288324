import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../events/types';
import { CHANGES, changeOf } from './changes';
import { noteOf } from './hub';

function event(partial: Partial<DomainEvent> & Pick<DomainEvent, 'type' | 'data'>): DomainEvent {
  return { realmId: 'r1', realmSlug: 'one', actor: { kind: 'user', id: 'admin' }, at: new Date(), ...partial } as DomainEvent;
}

describe('event to changed message', () => {
  it('names the resource, action and id, with the read permission', () => {
    expect(changeOf(event({ type: 'user.created', subjectId: 'u1', data: { userId: 'u1', hasPassword: true, isActive: true } }))).toEqual({
      message: { Resource: 'user', Action: 'created', Id: 'u1' },
      read: 'user:read',
    });
    expect(changeOf(event({ type: 'membership.added', subjectId: 'u1', data: { userId: 'u1', groupId: 'g1' } }))?.message).toEqual({
      Resource: 'authorization-group',
      Action: 'updated',
      Id: 'g1',
    });
    expect(changeOf(event({ type: 'realm.created', subjectId: 'r2', data: { slug: 'two', initialAdmin: false } }))?.read).toEqual({
      app: 'control-plane',
      permission: 'realm:read',
    });
  });

  it('says nothing of attempts and sign-in steps', () => {
    expect(changeOf(event({ type: 'auth.login-failed', data: { success: false, reason: 'bad' } }))).toBeNull();
    expect(CHANGES['auth.mail-failed']).toBeNull();
  });

  it('marks session-ending, realm-ending and grant-changing events', () => {
    expect(noteOf(event({ type: 'auth.logout', subjectId: 'u1', data: undefined }))).toMatchObject({ realmId: 'r1', sessionsOf: 'u1' });
    expect(noteOf(event({ type: 'realm.deactivated', subjectId: 'r2', data: { slug: 'two' } }))).toMatchObject({ endedRealm: 'r2' });
    expect(
      noteOf(event({ type: 'role.updated', subjectId: 'x', data: { roleId: 'x', app: 'gatehouse', appChanged: false, permissionCount: 1 } })),
    ).toMatchObject({
      grantsChanged: true,
    });
    expect(noteOf(event({ type: 'auth.login-failed', data: { success: false, reason: 'bad' } }))).toBeNull();
  });
});
