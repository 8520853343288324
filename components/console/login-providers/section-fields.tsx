'use client';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { CheckboxField, TextAreaField, TextField } from '@/components/ui/field';
import type { ProviderValues } from './provider-form-values';
import type { ExternalFlavor } from './provider-types';

// The fields of each flavor's section (CONTRACT.md "External identity"); the rules are the API's
// (provider-form-values.ts), the words here say what to copy from the upstream.
type Props = { register: UseFormRegister<ProviderValues>; errors: FieldErrors<ProviderValues> };

const code = { spellCheck: false, autoComplete: 'off', autoCapitalize: 'none' } as const;
const pem = { rows: 4, spellCheck: false, className: 'textarea mono' } as const;

function OidcFields({ register, errors }: Props) {
  const e = errors.Oidc;
  return (
    <>
      <TextField
        label="Issuer (Authority)"
        hint="Its discovery document is read from <issuer>/.well-known/openid-configuration."
        registration={register('Oidc.Authority')}
        error={e?.Authority?.message}
        placeholder="https://login.example.com"
        {...code}
      />
      <TextField label="Client ID" registration={register('Oidc.ClientId')} error={e?.ClientId?.message} {...code} />
      <TextField
        label="Scopes"
        optional
        hint="Space-separated; default openid email profile."
        registration={register('Oidc.Scopes')}
        error={e?.Scopes?.message}
        {...code}
      />
    </>
  );
}

function SamlFields({ register, errors }: Props) {
  const e = errors.Saml;
  return (
    <>
      <TextAreaField
        label="IdP metadata XML"
        optional
        hint="Paste the IdP's metadata; or leave it empty and fill in the three fields below."
        registration={register('Saml.IdpMetadataXml')}
        error={e?.IdpMetadataXml?.message}
        {...pem}
      />
      <TextField label="IdP entity ID" optional registration={register('Saml.IdpEntityId')} error={e?.IdpEntityId?.message} {...code} />
      <TextField label="IdP single sign-on URL" optional registration={register('Saml.IdpSsoUrl')} error={e?.IdpSsoUrl?.message} {...code} />
      <TextAreaField
        label="IdP signing certificate"
        optional
        hint="PEM; during a rollover, paste both certificates one after the other."
        registration={register('Saml.IdpCertificate')}
        error={e?.IdpCertificate?.message}
        {...pem}
      />
    </>
  );
}

function LdapFields({ register, errors }: Props) {
  const e = errors.Ldap;
  return (
    <>
      <TextField label="Directory URL" registration={register('Ldap.Url')} error={e?.Url?.message} placeholder="ldaps://ldap.example.com:636" {...code} />
      <TextField
        label="Bind DN"
        optional
        hint="The service account that searches for people; set its password below once the provider exists. Empty: anonymous search."
        registration={register('Ldap.BindDn')}
        error={e?.BindDn?.message}
        {...code}
      />
      <TextField
        label="User search base"
        registration={register('Ldap.UserSearchBase')}
        error={e?.UserSearchBase?.message}
        placeholder="ou=people,dc=example,dc=com"
        {...code}
      />
      <TextField
        label="User search filter"
        optional
        hint="{username} is replaced by the escaped name typed at sign-in. Default (uid={username})."
        registration={register('Ldap.UserSearchFilter')}
        error={e?.UserSearchFilter?.message}
        {...code}
      />
      <CheckboxField label="Use StartTLS" hint="Upgrade an ldap:// connection to TLS before binding." registration={register('Ldap.StartTls')} />
      <TextAreaField
        label="CA certificate"
        optional
        hint="PEM of the CA that signed the directory's certificate, when it is a private one."
        registration={register('Ldap.CaCertificate')}
        error={e?.CaCertificate?.message}
        {...pem}
      />
    </>
  );
}

function KerberosFields({ register, errors }: Props) {
  const e = errors.Kerberos;
  return (
    <>
      <TextField label="Kerberos realm" registration={register('Kerberos.Realm')} error={e?.Realm?.message} placeholder="EXAMPLE.COM" {...code} />
      <TextField
        label="Service principal"
        hint="HTTP/<host>@<REALM>; its key comes from the keytab you upload below once the provider exists."
        registration={register('Kerberos.ServicePrincipal')}
        error={e?.ServicePrincipal?.message}
        placeholder="HTTP/sso.example.com@EXAMPLE.COM"
        {...code}
      />
    </>
  );
}

const BY_FLAVOR = { Oidc: OidcFields, Saml: SamlFields, Ldap: LdapFields, Kerberos: KerberosFields } as const;

/** The section of `flavor`, in a fieldset named after it. */
export function SectionFields({ flavor, ...props }: Props & { flavor: ExternalFlavor }) {
  const Fields = BY_FLAVOR[flavor];
  return (
    <fieldset className="fieldset form">
      <legend>Connection</legend>
      <Fields {...props} />
    </fieldset>
  );
}
