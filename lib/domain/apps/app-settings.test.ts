import { describe, expect, it } from 'vitest';
import { DEFAULT_REALM_SETTINGS } from '../realm-settings/schema';
import { readStoredAppSettings, resolveAppSettings } from './app-settings';
import { appSettingsSchema } from './settings-schema';

describe('App settings over the realm settings', () => {
  it('a present field overrides, a null or absent field or section inherits', () => {
    const app = appSettingsSchema.parse({ Branding: { PrimaryColor: '#112233', ProductName: null }, NativeGrants: { Enabled: true }, Dcr: null });
    const s = resolveAppSettings({ ...DEFAULT_REALM_SETTINGS, Branding: { ...DEFAULT_REALM_SETTINGS.Branding, ProductName: 'Realm' } }, app);
    expect(s.Branding).toEqual({ PrimaryColor: '#112233', ProductName: 'Realm', LogoUrl: undefined });
    expect(s.NativeGrants.Enabled).toBe(true);
    expect(s.Dcr).toEqual(DEFAULT_REALM_SETTINGS.Dcr);
    expect(s.Origin.Subdomain).toBeNull();
  });

  it('refuses unknown sections and fields, and bad values, with friendly messages', () => {
    expect(appSettingsSchema.safeParse({ Colours: {} }).success).toBe(false);
    expect(appSettingsSchema.safeParse({ Branding: { Colour: '#000000' } }).success).toBe(false);
    const bad = appSettingsSchema.safeParse({ Origin: { Subdomain: '-shop' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toMatch(/DNS label/);
  });

  it('a stored section that no longer validates inherits instead of failing', () => {
    const stored = readStoredAppSettings(JSON.stringify({ Branding: { PrimaryColor: 'red' }, SelfRegistration: { Posture: 'ExplicitEndpoint' } }));
    expect(stored.Branding).toBeUndefined();
    expect(stored.SelfRegistration).toEqual({ Posture: 'ExplicitEndpoint' });
    expect(readStoredAppSettings('not json')).toEqual({});
  });
});
