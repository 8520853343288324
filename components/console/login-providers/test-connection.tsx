'use client';
import { useMutation } from '@tanstack/react-query';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { ConnectionTest, LoginProvider } from './provider-types';

/**
 * "Test connection" (POST {id}/test): LDAP binds as the service account and searches the base, OIDC
 * reads the discovery document. It tests the stored settings, so unsaved changes are not tried.
 */
export function TestConnection({ provider }: { provider: LoginProvider }) {
  const test = useMutation({ mutationFn: () => api<ConnectionTest>(`/api/admin/login-providers/${encodeURIComponent(provider.Id)}/test`, { method: 'POST' }) });
  const r = test.data;
  return (
    <section className="card" aria-labelledby="test-connection-heading">
      <div className="card-header">
        <h2 id="test-connection-heading">Test connection</h2>
      </div>
      <div className="card-body stack">
        <p className="muted small">
          {provider.Flavor === 'Ldap' ? 'Connects, binds as the bind DN and searches the user search base.' : 'Reads the issuer’s discovery document.'} It uses
          the saved settings.
        </p>
        {r ? (
          r.Ok ? (
            <Alert tone="success" title="The connection works.">
              {r.Entries !== undefined ? <p>{r.Entries === 1 ? '1 entry' : `${r.Entries} entries`} found under the search base.</p> : null}
            </Alert>
          ) : (
            <Alert tone="danger" title="The connection failed.">
              <p>{r.Reason ?? 'No reason was given.'}</p>
            </Alert>
          )
        ) : null}
        {test.isError ? <Alert tone="danger" title={problemMessage(test.error)} /> : null}
        <div>
          <Button onClick={() => test.mutate()} busy={test.isPending} busyLabel="Testing…">
            Test connection
          </Button>
        </div>
      </div>
    </section>
  );
}
