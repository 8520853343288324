'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, problemMessage } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CheckboxList } from '@/components/ui/checkbox-list';
import { TextField } from '@/components/ui/field';
import { createCredentialSchema } from '@/lib/domain/service-accounts/credential-schemas';
import { refetchAfterWrite, scopeOptions, useAllScopes } from '../oauth-queries';
import { oauthKeys, type IssuedCredential } from '../oauth-types';

// A new credential (CONTRACT.md: DisplayName?, Scopes?, ExpiresAt?): a confidential OAuth client
// for client_credentials. The answer carries the secret once; the parent shows it.
const rules = createCredentialSchema.shape;
const schema = z.object({
  DisplayName: rules.DisplayName.unwrap().unwrap(),
  Scopes: rules.Scopes.unwrap().unwrap(),
  // datetime-local: the administrator's local time, sent as an ISO instant.
  ExpiresAt: z.string().refine((v) => !v || new Date(v).getTime() > Date.now(), 'Choose a moment in the future, or leave it empty.'),
});
type Values = z.infer<typeof schema>;
const FIELDS = ['DisplayName', 'Scopes', 'ExpiresAt'] as const;
const EMPTY: Values = { DisplayName: '', Scopes: [], ExpiresAt: '' };

export function NewCredential({ accountId, canReadScopes, onIssued }: { accountId: string; canReadScopes: boolean; onIssued: (c: IssuedCredential) => void }) {
  const queryClient = useQueryClient();
  const scopes = useAllScopes(canReadScopes);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: EMPTY });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const create = useMutation({
    mutationFn: (v: Values) =>
      api<IssuedCredential>(`/api/service-account/${encodeURIComponent(accountId)}/credentials`, {
        method: 'POST',
        body: { DisplayName: v.DisplayName || null, Scopes: v.Scopes, ExpiresAt: v.ExpiresAt ? new Date(v.ExpiresAt).toISOString() : null },
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
            <TextField
              label="Credential name"
              optional
              hint="Defaults to the account’s name."
              registration={form.register('DisplayName')}
              error={errors.DisplayName?.message}
            />
            <TextField
              label="Expires"
              optional
              type="datetime-local"
              hint="Your local time. Empty: never expires."
              registration={form.register('ExpiresAt')}
              error={errors.ExpiresAt?.message}
            />
          </div>
          {canReadScopes ? (
            <>
              {scopes.isError ? (
                <Alert tone="danger" title="The scopes could not be loaded.">
                  {problemMessage(scopes.error)}
                </Alert>
              ) : null}
              <Controller
                control={form.control}
                name="Scopes"
                render={({ field }) => (
                  <CheckboxList
                    legend="Scopes"
                    hint="gatehouse.management lets it call Gatehouse’s API as this account."
                    options={scopeOptions(scopes.data?.items, field.value)}
                    value={field.value}
                    onChange={field.onChange}
                    error={errors.Scopes?.message}
                    empty={scopes.isPending ? 'Loading the scopes…' : 'This realm has no scopes.'}
                  />
                )}
              />
            </>
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
