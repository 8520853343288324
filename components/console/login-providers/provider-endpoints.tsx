'use client';
import { CopyField } from '@/components/ui/copy-button';
import type { LoginProvider } from './provider-types';

/**
 * What the administrator gives the upstream (CONTRACT.md "External identity"): the OIDC redirect
 * URI, the SAML SP's entity ID, ACS and metadata URLs, or the Kerberos negotiate route.
 */
export function ProviderEndpoints({ provider }: { provider: LoginProvider }) {
  const rows = [
    { label: 'Callback URL (redirect URI)', value: provider.CallbackUrl },
    { label: 'SP entity ID', value: provider.SpEntityId },
    { label: 'ACS URL', value: provider.AcsUrl },
    { label: 'SP metadata URL', value: provider.SpMetadataUrl },
    { label: 'Negotiate URL', value: provider.NegotiateUrl },
  ].filter((r): r is { label: string; value: string } => Boolean(r.value));
  if (rows.length === 0) return null;
  return (
    <section className="card" aria-labelledby="endpoints-heading">
      <div className="card-header">
        <h2 id="endpoints-heading">For the identity provider</h2>
        <p className="muted small">
          {provider.Flavor === 'Saml'
            ? 'Give the IdP the SP metadata URL, or the entity ID and ACS URL.'
            : provider.Flavor === 'Oidc'
              ? 'Register this redirect URI with the client at the upstream.'
              : 'Where a browser with a Kerberos ticket signs in.'}
        </p>
      </div>
      <div className="card-body">
        {rows.map((r) => (
          <CopyField key={r.label} label={r.label} value={r.value} />
        ))}
      </div>
    </section>
  );
}
