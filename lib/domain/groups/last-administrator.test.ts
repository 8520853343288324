import { describe, expect, it } from 'vitest';
import { leavesNoAdministrator } from './last-administrator';

// Administrators <- Ops (nested); members are live users only (the repo filters them).
const parents = () => new Map([['ops', ['admins']]]);
const members = (m: Record<string, string[]>) => new Map(Object.entries(m));

describe('leavesNoAdministrator', () => {
  it('refuses removing the only direct administrator, allows it when another remains', () => {
    expect(leavesNoAdministrator('admins', parents(), members({ admins: ['a'] }), { removedUserIds: ['a'] })).toBe(true);
    expect(leavesNoAdministrator('admins', parents(), members({ admins: ['a', 'b'] }), { removedUserIds: ['a'] })).toBe(false);
    expect(leavesNoAdministrator('admins', parents(), members({ admins: ['a', 'b'] }), { removedUserIds: ['a', 'b'] })).toBe(true);
  });

  it('counts members of nested groups', () => {
    const m = members({ admins: ['a'], ops: ['c'] });
    expect(leavesNoAdministrator('admins', parents(), m, { removedMembership: { userId: 'a', groupId: 'admins' } })).toBe(false);
    const onlyNested = members({ ops: ['c'] });
    expect(leavesNoAdministrator('admins', parents(), onlyNested, { deletedGroupId: 'ops' })).toBe(true);
    expect(leavesNoAdministrator('admins', parents(), onlyNested, { reparented: { groupId: 'ops', parentIds: [] } })).toBe(true);
    expect(leavesNoAdministrator('admins', parents(), onlyNested, { removedMembership: { userId: 'c', groupId: 'ops' } })).toBe(true);
    expect(leavesNoAdministrator('admins', parents(), onlyNested, { removedMembership: { userId: 'c', groupId: 'admins' } })).toBe(false);
  });

  it('does not block anything in a realm that already has no administrator', () => {
    expect(leavesNoAdministrator('admins', parents(), members({ other: ['x'] }), { removedUserIds: ['x'] })).toBe(false);
  });
});
