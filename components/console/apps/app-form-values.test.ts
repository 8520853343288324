import { describe, expect, it } from 'vitest';
import { appSettingsSchema } from '@/lib/domain/apps/settings-schema';
import { appBody, appFormSchema, appFormValues, slugFrom, type App } from './app-form-values';

const app: App = {
  Id: 'a1',
  Slug: 'shop',
  DisplayName: 'Shop',
  IsBuiltIn: false,
  RoleCount: 0,
  CreatedAt: '2026-01-01T00:00:00.000Z',
  PermissionCatalog: [{ Name: 'orders:read', Description: 'Read orders' }, { Name: 'orders:write' }],
  Settings: { Origin: { Subdomain: 'shop' }, Branding: { PrimaryColor: '#aa0011' }, Dcr: { Enabled: false }, RegistrationFields: {} },
  Host: 'shop.acme.test',
};

describe('the App form', () => {
  it('round-trips a document: inherited sections null, blank fields null, set fields kept', () => {
    const values = appFormValues(app);
    expect(values.Settings.Branding).toEqual({ Inherit: false, ProductName: '', PrimaryColor: '#aa0011', LogoUrl: '' });
    expect(values.Settings.EmailBranding.Inherit).toBe(true);
    expect(values.Settings.RegistrationFields.Inherit).toBe(false);
    const body = appBody(values, false);
    expect(body).toMatchObject({
      Slug: 'shop',
      Description: null,
      PermissionCatalog: [
        { Name: 'orders:read', Description: 'Read orders' },
        { Name: 'orders:write', Description: null },
      ],
    });
    expect(body.Settings).toEqual({
      Origin: { Subdomain: 'shop' },
      Branding: { ProductName: null, PrimaryColor: '#aa0011', LogoUrl: null },
      EmailBranding: null,
      SelfRegistration: null,
      RegistrationFields: { Username: null, Firstname: null, Lastname: null },
      NativeGrants: null,
      Dcr: { Enabled: false },
      Cimd: null,
    });
    // What the form sends is what the API accepts.
    expect(appSettingsSchema.safeParse(body.Settings).success).toBe(true);
  });

  it('an App without Settings inherits every section; a built-in App sends none', () => {
    const values = appFormValues({ ...app, Settings: undefined });
    expect(Object.values(values.Settings).filter((s) => 'Inherit' in s && !s.Inherit)).toEqual([]);
    expect(appBody(values, false).Settings?.Origin).toBeNull();
    expect(appBody(appFormValues(app), true).Settings).toBeNull();
  });

  it('checks fields with the API’s messages, blank allowed', () => {
    const values = appFormValues(app);
    values.Settings.Branding.PrimaryColor = 'red';
    values.Settings.Origin.Subdomain = '-x';
    values.Settings.EmailBranding.LogoUrl = '';
    const r = appFormSchema.safeParse(values);
    expect(r.success).toBe(false);
    const messages = Object.fromEntries(r.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(messages).toEqual({
      'Settings.Branding.PrimaryColor': 'Use a colour like #1f4f8f.',
      'Settings.Origin.Subdomain': 'Use one DNS label: letters, digits and hyphens, not starting or ending with a hyphen.',
    });
  });

  it('suggests a slug from the name', () => {
    expect(slugFrom('Web Shop (EU)')).toBe('web-shop-eu');
    expect(slugFrom('  2nd Café  ')).toBe('nd-cafe');
    expect(slugFrom('***')).toBe('');
  });
});
