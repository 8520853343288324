'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { refetchAfterWrite, useAllScopes } from '../oauth-queries';
import { oauthKeys, type Credential } from '../oauth-types';
import {
  CREDENTIAL_FIELDS,
  CredentialScopesField,
  CredentialTextFields,
  credentialFormSchema,
  expiresAtInstant,
  type CredentialValues,
} from './credential-fields';

// Change a credential's name, scopes or expiry (PUT, a merge-patch: every field is sent, so what
// the dialog shows is what is stored). The secret is not touched; rotating it is its own action.

/** An instant as a datetime-local value in the browser's time zone. */
function localInput(iso?: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

const valuesOf = (c: Credential): CredentialValues => ({ DisplayName: c.DisplayName, Scopes: c.Scopes, ExpiresAt: localInput(c.ExpiresAt) });

export function EditCredential({
  credential,
  canReadScopes,
  open,
  onClose,
}: {
  credential: Credential;
  canReadScopes: boolean;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const formId = useId();
  const scopes = useAllScopes(canReadScopes && open);
  const form = useForm<CredentialValues>({ resolver: zodResolver(credentialFormSchema), defaultValues: valuesOf(credential) });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, CREDENTIAL_FIELDS);
  // Each opening starts from the stored values.
  useEffect(() => {
    if (open) form.reset(valuesOf(credential));
  }, [open, credential, form]);
  const save = useMutation({
    mutationFn: (v: CredentialValues) =>
      api<Credential>(`/api/service-account/${encodeURIComponent(credential.ServiceAccountId)}/credentials/${encodeURIComponent(credential.Id)}`, {
        method: 'PUT',
        body: {
          DisplayName: v.DisplayName || null,
          // Without oauth-scope:read the scopes are not shown, so they are left as they are.
          ...(canReadScopes ? { Scopes: v.Scopes } : {}),
          // Empty clears the expiry (merge-patch: a blank string is cleared).
          ExpiresAt: expiresAtInstant(v) ?? '',
        },
      }),
    onSuccess: () => {
      void refetchAfterWrite(queryClient, oauthKeys.credentials(credential.ServiceAccountId));
      void queryClient.invalidateQueries({ queryKey: oauthKeys.clients });
      onClose();
    },
    onError: (e) => report(e),
  });
  const close = () => {
    form.reset(valuesOf(credential));
    clear();
    save.reset();
    onClose();
  };
  const errors = form.formState.errors;
  return (
    <Dialog
      open={open}
      onClose={close}
      title={`Edit credential “${credential.DisplayName}”`}
      footer={
        <>
          <Button onClick={close} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" busy={save.isPending} busyLabel="Saving…">
            Save credential
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="stack"
        noValidate
        onSubmit={form.handleSubmit((v) => {
          clear();
          save.mutate(v);
        })}
      >
        <ErrorSummary summary={summary} ref={summaryRef} />
        <CredentialTextFields register={form.register} errors={errors} nameHint="Empty: the account’s name." />
        {canReadScopes ? <CredentialScopesField control={form.control} errors={errors} scopes={scopes} /> : null}
      </form>
    </Dialog>
  );
}
