import { describe, expect, it } from 'vitest';
import { providerBody, providerFormSchema, providerValues } from './provider-form-values';
import type { LoginProvider } from './provider-types';

describe('provider form values', () => {
  it('sends only the chosen section, blank optional fields as null and required ones as typed', () => {
    const v = providerValues();
    v.Name = 'Corp';
    v.Oidc = { Authority: 'https://idp.example.test', ClientId: 'gh', Scopes: '' };
    v.Ldap.Url = 'ldap://left.over';
    const body = providerBody('Oidc', v);
    expect(body).toEqual({
      Flavor: 'Oidc',
      Name: 'Corp',
      Slug: null,
      IsActive: true,
      Jit: { Enabled: true, DefaultGroupIds: [] },
      UserUpdateScript: null,
      Oidc: { Authority: 'https://idp.example.test', ClientId: 'gh', Scopes: null },
    });
  });

  it('checks the body with the API schema, with errors at the API paths', () => {
    const v = providerValues();
    v.Name = 'Dir';
    v.Ldap = { ...v.Ldap, Url: 'http://not-ldap', UserSearchBase: '', UserSearchFilter: 'uid=x' };
    const r = providerFormSchema('Ldap').safeParse(v);
    expect(r.success).toBe(false);
    const paths = r.error?.issues.map((i) => i.path.join('.')).sort();
    expect(paths).toEqual(['Ldap.Url', 'Ldap.UserSearchBase', 'Ldap.UserSearchFilter']);
  });

  it('needs a slug for SAML and keeps it out of other flavors', () => {
    const v = providerValues();
    v.Name = 'Okta';
    v.Slug = 'okta';
    v.Saml.IdpMetadataXml = '<EntityDescriptor/>';
    expect(providerFormSchema('Saml').safeParse(v).success).toBe(true);
    v.Slug = '';
    expect(
      providerFormSchema('Saml')
        .safeParse(v)
        .error?.issues.map((i) => i.path.join('.')),
    ).toEqual(['Slug']);
    expect(providerBody('Kerberos', { ...v, Slug: 'okta' }).Slug).toBeNull();
  });

  it('reads a stored provider back into the form, absent members as empty', () => {
    const stored = {
      Id: 'p',
      Name: 'Dir',
      Flavor: 'Ldap',
      IsBuiltIn: false,
      IsActive: false,
      Jit: { Enabled: false, DefaultGroupIds: ['g1'] },
      Ldap: { Url: 'ldaps://dir:636', UserSearchBase: 'ou=people,dc=x', StartTls: true },
      HasSecret: true,
      CreatedAt: '2024-01-01T00:00:00.000Z',
    } satisfies LoginProvider;
    const v = providerValues(stored);
    expect(v.IsActive).toBe(false);
    expect(v.Jit).toEqual({ Enabled: false, DefaultGroupIds: ['g1'] });
    expect(v.Ldap).toEqual({ Url: 'ldaps://dir:636', BindDn: '', UserSearchBase: 'ou=people,dc=x', UserSearchFilter: '', StartTls: true, CaCertificate: '' });
  });
});
