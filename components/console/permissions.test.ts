import { describe, expect, it } from 'vitest';
import { can, visibleNav } from './permissions';

const viewer = (Permissions: string[], ControlPlanePermissions: string[] = [], IsControlPlane = false) => ({
  Permissions,
  ControlPlanePermissions,
  IsControlPlane,
});

describe('can', () => {
  it('grants the exact permission, <resource>:admin and realm:admin', () => {
    expect(can(viewer(['user:read']), 'user:read')).toBe(true);
    expect(can(viewer(['user:read']), 'user:write')).toBe(false);
    expect(can(viewer(['user:admin']), 'user:write')).toBe(true);
    expect(can(viewer(['realm:admin']), 'authorization-group:write')).toBe(true);
  });

  it('reads control-plane permissions only on the control plane', () => {
    expect(can(viewer(['realm:admin'], ['realm:read'], false), 'realm:read', 'control-plane')).toBe(false);
    expect(can(viewer([], ['realm:read'], true), 'realm:read', 'control-plane')).toBe(true);
    expect(can(viewer(['realm:admin'], [], true), 'realm:read', 'control-plane')).toBe(false);
    expect(can(viewer([], ['control-plane:realm:admin'], true), 'control-plane:realm:write', 'control-plane')).toBe(true);
  });
});

describe('visibleNav', () => {
  it('shows realm management only with control-plane rights', () => {
    const labels = (v: ReturnType<typeof viewer>) => visibleNav(v).map((i) => i.label);
    expect(labels(viewer(['realm:admin']))).toEqual([
      'Users',
      'Groups',
      'Roles',
      'Change requests',
      'Applications',
      'Invite codes',
      'OAuth clients',
      'OAuth APIs',
      'OAuth scopes',
      'Service accounts',
      'Login providers',
      'Security log',
      'Realm settings',
      'Configuration',
    ]);
    expect(labels(viewer(['realm:admin'], ['realm:admin'], true))).toContain('Realms');
    expect(labels(viewer(['user:read']))).toEqual(['Users']);
    expect(labels(viewer(['login-provider:read']))).toEqual(['Login providers']);
    expect(labels(viewer(['user:write']))).toEqual(['Change requests']);
    expect(labels(viewer(['app:read']))).toEqual(['Applications']);
    expect(labels(viewer(['oauth-client:read', 'service-account:admin']))).toEqual(['OAuth clients', 'Service accounts']);
    expect(labels(viewer(['oauth-api:read', 'oauth-scope:admin']))).toEqual(['OAuth APIs', 'OAuth scopes']);
  });

  it('shows positions only while the realm switch is on', () => {
    const labels = (features?: { PositionTerminals?: boolean }) => visibleNav({ ...viewer(['position:read']), Features: features }).map((i) => i.label);
    expect(labels()).toEqual([]);
    expect(labels({ PositionTerminals: false })).toEqual([]);
    expect(labels({ PositionTerminals: true })).toEqual(['Positions']);
    expect(visibleNav({ ...viewer(['user:read']), Features: { PositionTerminals: true } }).map((i) => i.label)).toEqual(['Users']);
  });
});
