import { describe, expect, it } from 'vitest';
import { realmAffectedBy } from './affected-realm';
import type { DomainEvent } from './types';

const envelope = { realmId: 'control-plane', realmSlug: 'control', actor: { kind: 'user' as const }, at: new Date() };

describe('the realm an event concerns', () => {
  it('is the realm it happened in', () => {
    const event = { ...envelope, realmId: 'tenant-a', type: 'group.updated', subjectId: 'group-1', data: {} } as unknown as DomainEvent;
    expect(realmAffectedBy(event)).toBe('tenant-a');
  });

  it('for a change of a realm made from the control plane, the realm it is about, not the control plane or every realm', () => {
    for (const type of ['realm.created', 'realm.updated', 'realm.deactivated', 'realm.deleted', 'realm.primary-domain-changed']) {
      const event = { ...envelope, type, subjectId: 'tenant-b', data: { slug: 'b' } } as unknown as DomainEvent;
      expect(realmAffectedBy(event), type).toBe('tenant-b');
    }
  });

  it('every realm when the control plane moves', () => {
    const event = { ...envelope, type: 'realm.control-plane-transferred', subjectId: 'tenant-c', data: { from: 'control', to: 'c' } } as DomainEvent;
    expect(realmAffectedBy(event)).toBeNull();
  });
});
