'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { refetchAfterWrite, useAllScopes } from '../oauth-queries';
import { oauthKeys, type IssuedCredential } from '../oauth-types';
import {
  CREDENTIAL_FIELDS,
  CredentialScopesField,
  CredentialTextFields,
  credentialFormSchema,
  expiresAtInstant,
  type CredentialValues,
} from './credential-fields';

// A new credential (CONTRACT.md: DisplayName?, Scopes?, ExpiresAt?): a confidential OAuth client
// for client_credentials. The answer carries the secret once; the parent shows it.
const EMPTY: CredentialValues = { DisplayName: '', Scopes: [], ExpiresAt: '' };

export function NewCredential({ accountId, canReadScopes, onIssued }: { accountId: string; canReadScopes: boolean; onIssued: (c: IssuedCredential) => void }) {
  const queryClient = useQueryClient();
  const scopes = useAllScopes(canReadScopes);
  const form = useForm<CredentialValues>({ resolver: zodResolver(credentialFormSchema), defaultValues: EMPTY });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, CREDENTIAL_FIELDS);
  const create = useMutation({
    mutationFn: (v: CredentialValues) =>
      api<IssuedCredential>(`/api/service-account/${encodeURIComponent(accountId)}/credentials`, {
        method: 'POST',
        body: { DisplayName: v.DisplayName || null, Scopes: v.Scopes, ExpiresAt: expiresAtInstant(v) },
      }),
    onSuccess: (c) => {
      void refetchAfterWrite(queryClient, oauthKeys.credentials(accountId));
      void refetchAfterWrite(queryClient, oauthKeys.serviceAccount(accountId));
      void queryClient.invalidateQueries({ queryKey: oauthKeys.clients });
      form.reset(EMPTY);
      onIssued(c);
    },
    onError: (e) => report(e),
  });
  const errors = form.formState.errors;
  return (
    <form
      className="card"
      noValidate
      aria-label="New credential"
      onSubmit={form.handleSubmit((v) => {
        clear();
        create.mutate(v);
      })}
    >
      <div className="card-header">
        <h2>New credential</h2>
      </div>
      <div className="card-body">
        <fieldset className="fieldset form">
          <ErrorSummary summary={summary} ref={summaryRef} />
          <div className="form-grid">
            <CredentialTextFields register={form.register} errors={errors} nameHint="Defaults to the account’s name." />
          </div>
          {canReadScopes ? (
            <CredentialScopesField
              control={form.control}
              errors={errors}
              scopes={scopes}
              hint="gatehouse.management lets it call Gatehouse’s API as this account."
            />
          ) : (
            <p className="muted small">Choosing scopes needs the permission oauth-scope:read; the credential gets none.</p>
          )}
        </fieldset>
      </div>
      <div className="card-footer form-actions">
        <Button type="submit" variant="primary" busy={create.isPending} busyLabel="Creating…">
          Create credential
        </Button>
      </div>
    </form>
  );
}
