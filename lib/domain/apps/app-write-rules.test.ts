import { describe, expect, it } from 'vitest';
import { isAppError } from '../../errors/app-error';
import { describeBlockers } from './app-blockers';
import { checkWrite, gatedChanges, removedPermissions } from './app-write-rules';
import { appWriteSchema } from './schemas';
import { sparseAppSettings } from './settings-schema';

const input = (extra: Record<string, unknown> = {}) => appWriteSchema.parse({ Slug: 'shop', DisplayName: 'Shop', PermissionCatalog: [], ...extra });
const codeOf = (f: () => unknown) => {
  try {
    f();
    return null;
  } catch (e) {
    return isAppError(e) ? { code: e.code, errors: e.errors } : e;
  }
};

describe('App writes', () => {
  it('a built-in App keeps its slug and has no Settings; other Apps may not take a built-in slug', () => {
    const builtIn = { slug: 'gatehouse', isBuiltIn: true };
    expect(codeOf(() => checkWrite(input({ Slug: 'gatehouse' }), builtIn))).toBeNull();
    expect(codeOf(() => checkWrite(input({ Slug: 'gatehouse', Settings: { Branding: null } }), builtIn))).toBeNull();
    expect(codeOf(() => checkWrite(input({ Slug: 'other' }), builtIn))).toMatchObject({ code: 'App.BuiltIn', errors: { Slug: [expect.any(String)] } });
    expect(codeOf(() => checkWrite(input({ Slug: 'gatehouse', Settings: { Dcr: { Enabled: true } } }), builtIn))).toMatchObject({
      code: 'App.BuiltIn',
      errors: { Settings: [expect.any(String)] },
    });
    expect(codeOf(() => checkWrite(input({ Slug: 'control-plane' }), null))).toMatchObject({
      code: 'Validation.Failed',
      errors: { Slug: [expect.any(String)] },
    });
  });

  it('stores Settings sparse: null sections and fields and blank text dropped, empty sections kept', () => {
    const parsed = input({ Settings: { Origin: { Subdomain: ' Shop ' }, Branding: { ProductName: '  ', PrimaryColor: '#112233' }, Dcr: null, Cimd: {} } });
    expect(sparseAppSettings(parsed.Settings)).toEqual({ Origin: { Subdomain: 'shop' }, Branding: { PrimaryColor: '#112233' }, Cimd: {} });
    expect(sparseAppSettings(input({ Settings: { Dcr: null } }).Settings)).toBeNull();
  });

  it('refuses bad input with friendly messages at the field paths', () => {
    const r = appWriteSchema.safeParse({
      Slug: 'Shop!',
      DisplayName: '',
      PermissionCatalog: [{ Name: 'orders:read' }, { Name: 'orders:read' }, { Name: 'has space' }],
      Settings: { Origin: { Subdomain: '-x' }, Branding: { Colour: 'red' }, Colours: {}, SelfRegistration: { Posture: 'Open' } },
    });
    expect(r.success).toBe(false);
    const byPath = Object.fromEntries(r.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        'Slug',
        'DisplayName',
        'PermissionCatalog.1.Name',
        'PermissionCatalog.2.Name',
        'Settings',
        'Settings.Origin.Subdomain',
        'Settings.Branding',
        'Settings.SelfRegistration.Posture',
      ].sort(),
    );
    expect(byPath['Settings.Branding']).toBe('Colour is not a setting of Branding; it has ProductName, PrimaryColor, LogoUrl.');
    expect(byPath.Settings).toMatch(/^Colours is not a section of Settings/);
    expect(byPath['Settings.SelfRegistration.Posture']).toBe('Choose Off, JitOnOtp or ExplicitEndpoint.');
    for (const message of Object.values(byPath)) expect(message).not.toMatch(/Invalid input|expected/i);
  });

  it('names the sections that need a realm administrator when they change', () => {
    const before = { SelfRegistration: { Posture: 'JitOnOtp' as const }, Branding: { ProductName: 'A' } };
    expect(gatedChanges(before, { ...before, Branding: { ProductName: 'B' } })).toEqual([]);
    expect(gatedChanges(before, { Dcr: { Enabled: false } })).toEqual(['SelfRegistration', 'Dcr']);
    expect(gatedChanges(null, null)).toEqual([]);
  });

  it('names the permissions a new catalog drops', () => {
    expect(removedPermissions([{ Name: 'a' }, { Name: 'b' }, { Name: 'c' }], [{ Name: 'b' }, { Name: 'd' }])).toEqual(['a', 'c']);
  });

  it('describes blockers in plain words', () => {
    expect(
      describeBlockers([
        { Kind: 'Role', Id: '1', Name: 'Editors' },
        { Kind: 'Role', Id: '2', Name: 'Viewers' },
        { Kind: 'OAuthClient', Id: '3', Name: 'Shop web (shop-web)' },
        { Kind: 'InviteCode', Id: '4', Name: 'x' },
        { Kind: 'InviteCode', Id: '5', Name: 'y' },
      ]),
    ).toBe(
      'Still used by 2 roles (Editors, Viewers), 1 OAuth client (Shop web (shop-web)) and 2 active invite codes. Delete them or move them to another application (revoke the invite codes) first.',
    );
  });
});
