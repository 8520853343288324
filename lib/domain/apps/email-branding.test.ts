import { describe, expect, it } from 'vitest';
import { readStoredAppSettings } from './app-settings';
import { applyEmailBranding } from './email-branding';

const realm = { productName: 'Acme ID', primaryColor: '#1f4f8f', logoUrl: 'https://acme.test/logo.png' };
const overrideOf = (doc: string | null) => readStoredAppSettings(doc).EmailBranding ?? {};

describe('App EmailBranding override', () => {
  it('with no settings, or no EmailBranding section, the base branding stands', () => {
    for (const doc of [null, '', '{}', '{"Branding":{"ProductName":"X"}}', '{"EmailBranding":null}']) {
      expect(applyEmailBranding(realm, overrideOf(doc))).toEqual({ ...realm, senderName: undefined, footerText: undefined });
    }
  });

  it('overrides field by field; a null or absent field inherits', () => {
    const o = overrideOf(
      JSON.stringify({ EmailBranding: { ProductName: ' Shop ', PrimaryColor: null, SenderName: 'Shop team', FooterText: 'Shop Ltd, 1 Road' } }),
    );
    expect(applyEmailBranding(realm, o)).toEqual({
      productName: 'Shop',
      primaryColor: '#1f4f8f',
      logoUrl: 'https://acme.test/logo.png',
      senderName: 'Shop team',
      footerText: 'Shop Ltd, 1 Road',
    });
  });

  it('overrides the colour and logo', () => {
    const o = overrideOf(JSON.stringify({ EmailBranding: { PrimaryColor: '#AA0011', LogoUrl: 'https://shop.test/l.svg' } }));
    expect(applyEmailBranding(realm, o)).toMatchObject({ productName: 'Acme ID', primaryColor: '#AA0011', logoUrl: 'https://shop.test/l.svg' });
  });

  it('a section that does not validate inherits as a whole instead of failing the mail', () => {
    for (const doc of ['{nope', '[1]', '{"EmailBranding":"Shop"}', JSON.stringify({ EmailBranding: { LogoUrl: 'javascript:alert(1)', FooterText: 'ok' } })]) {
      expect(applyEmailBranding(realm, overrideOf(doc))).toEqual({ ...realm, senderName: undefined, footerText: undefined });
    }
  });
});
