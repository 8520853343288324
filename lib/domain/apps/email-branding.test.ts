import { describe, expect, it } from 'vitest';
import { applyEmailBranding, parseEmailBrandingOverride } from './email-branding';

const realm = { productName: 'Acme ID', primaryColor: '#1f4f8f', logoUrl: 'https://acme.test/logo.png' };

describe('App EmailBranding override', () => {
  it('with no settings, or no EmailBranding section, the realm branding stands', () => {
    for (const doc of [null, undefined, '', '{}', '{"Branding":{"ProductName":"X"}}', '{"EmailBranding":null}']) {
      expect(applyEmailBranding(realm, parseEmailBrandingOverride(doc))).toEqual({ ...realm, senderName: undefined, footerText: undefined });
    }
  });

  it('overrides field by field; a null or absent field inherits the realm', () => {
    const o = parseEmailBrandingOverride(
      JSON.stringify({ EmailBranding: { ProductName: ' Shop ', PrimaryColor: null, SenderName: 'Shop team', FooterText: 'Shop Ltd, 1 Road' } }),
    );
    expect(o).toEqual({ ProductName: 'Shop', SenderName: 'Shop team', FooterText: 'Shop Ltd, 1 Road' });
    expect(applyEmailBranding(realm, o)).toEqual({
      productName: 'Shop',
      primaryColor: '#1f4f8f',
      logoUrl: 'https://acme.test/logo.png',
      senderName: 'Shop team',
      footerText: 'Shop Ltd, 1 Road',
    });
  });

  it('overrides the colour and logo', () => {
    const o = parseEmailBrandingOverride(JSON.stringify({ EmailBranding: { PrimaryColor: '#AA0011', LogoUrl: 'https://shop.test/l.svg' } }));
    expect(applyEmailBranding(realm, o)).toMatchObject({ productName: 'Acme ID', primaryColor: '#AA0011', logoUrl: 'https://shop.test/l.svg' });
  });

  it('ignores a field that does not validate (it inherits) instead of failing the mail', () => {
    const o = parseEmailBrandingOverride(
      JSON.stringify({
        EmailBranding: { ProductName: '', PrimaryColor: 'red;x', LogoUrl: 'javascript:alert(1)', SenderName: 42, FooterText: 'ok', Other: 'x' },
      }),
    );
    expect(o).toEqual({ FooterText: 'ok' });
  });

  it('ignores a document that is not JSON or not an object', () => {
    expect(parseEmailBrandingOverride('{nope')).toEqual({});
    expect(parseEmailBrandingOverride('[1]')).toEqual({});
    expect(parseEmailBrandingOverride('{"EmailBranding":"Shop"}')).toEqual({});
  });
});
