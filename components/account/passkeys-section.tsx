'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { api, problemMessage } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextField } from '@/components/ui/field';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { passkeyNameSchema } from '@/lib/domain/passkeys/schemas';
import { accountKeys, type Passkey } from './account-types';
import { AccountSection } from './section';

const schema = passkeyNameSchema;
type Values = z.infer<typeof schema>;
const FIELDS = ['DisplayName'] as const;

/** What the browser said when the ceremony did not finish, in words. */
function ceremonyMessage(e: unknown): string | null {
  if (e instanceof WebAuthnError) {
    if (e.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'This device already holds a passkey for your account.';
    if (e.code === 'ERROR_CEREMONY_ABORTED') return 'Adding the passkey was cancelled.';
    return e.message;
  }
  if (e instanceof Error && e.name === 'NotAllowedError') return 'Adding the passkey was cancelled or timed out.';
  return null;
}

/** Passkeys (spec 4.3): the list, adding one with this device, and removing one after confirmation. */
export function PasskeysSection({ enabled }: { enabled: boolean }) {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: accountKeys.passkeys, queryFn: ({ signal }) => api<Passkey[]>('/api/account/passkey', { signal }) });
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<Passkey | null>(null);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { DisplayName: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const supported = typeof window === 'undefined' || typeof window.PublicKeyCredential !== 'undefined';
  const add = useMutation({
    mutationFn: async (v: Values) => {
      const DisplayName = v.DisplayName || undefined;
      const optionsJSON = await api<Parameters<typeof startRegistration>[0]['optionsJSON']>('/api/account/passkey/register-options', {
        method: 'POST',
        body: { DisplayName },
      });
      const response = await startRegistration({ optionsJSON });
      return api<Passkey>('/api/account/passkey/register', { method: 'POST', body: { ...response, DisplayName } });
    },
    onSuccess: (p) => {
      setAdding(false);
      form.reset();
      setNotice(`Passkey “${p.DisplayName}” added.`);
      void queryClient.invalidateQueries({ queryKey: accountKeys.passkeys });
    },
    // A browser-side failure is shown from add.error (ceremonyMessage); a server one goes to the form.
    onError: (e) => {
      if (!ceremonyMessage(e)) report(e);
    },
  });
  const remove = useMutation({
    mutationFn: (p: Passkey) => api(`/api/account/passkey/${encodeURIComponent(p.Id)}`, { method: 'DELETE' }),
    onSuccess: (_r, p) => {
      setToDelete(null);
      setNotice(`Passkey “${p.DisplayName}” removed.`);
      void queryClient.invalidateQueries({ queryKey: accountKeys.passkeys });
    },
  });
  const ceremonyError = add.error ? ceremonyMessage(add.error) : null;
  return (
    <AccountSection id="passkeys" title="Passkeys" description="Sign in with your fingerprint, face or device PIN instead of a password.">
      {notice ? <Alert tone="success" title={notice} /> : null}
      {!enabled ? <Alert tone="info" title="This realm does not offer passkey sign-in at the moment." /> : null}
      <QueryState isPending={list.isPending} error={list.error} onRetry={() => list.refetch()}>
        {list.data && list.data.length ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Your passkeys</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Added</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((p) => (
                  <tr key={p.Id}>
                    <td>
                      {p.DisplayName} {p.BackedUp ? <span className="badge badge-plain">Synced</span> : null}
                    </td>
                    <td>{formatDate(p.CreatedAt)}</td>
                    <td>{p.LastUsedAt ? formatDate(p.LastUsedAt) : <span className="muted">Never</span>}</td>
                    <td className="row" style={{ justifyContent: 'flex-end' }}>
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => {
                          setNotice(null);
                          remove.reset();
                          setToDelete(p);
                        }}
                        aria-label={`Remove passkey ${p.DisplayName}`}
                      >
                        Remove
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">You have no passkeys yet.</p>
        )}
      </QueryState>
      {adding ? (
        <form
          className="form"
          noValidate
          aria-label="Add a passkey"
          onSubmit={form.handleSubmit((v) => {
            clear();
            setNotice(null);
            add.mutate(v);
          })}
        >
          {ceremonyError ? <Alert tone="danger" title={ceremonyError} /> : <ErrorSummary summary={summary} ref={summaryRef} />}
          <TextField
            label="Passkey name"
            optional
            registration={form.register('DisplayName')}
            error={form.formState.errors.DisplayName?.message}
            hint="So you can tell your passkeys apart, e.g. “Work laptop”."
            autoComplete="off"
          />
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={add.isPending} busyLabel="Follow your browser’s prompt…">
              Create passkey
            </Button>
            <Button
              variant="ghost"
              onClick={() => {
                setAdding(false);
                clear();
                add.reset();
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div>
          <Button
            variant="primary"
            disabled={!supported}
            onClick={() => {
              setNotice(null);
              setAdding(true);
            }}
          >
            Add a passkey
          </Button>
          {!supported ? <p className="field-hint">This browser does not support passkeys.</p> : null}
        </div>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        onClose={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        title="Remove this passkey?"
        confirmLabel="Remove passkey"
        busyLabel="Removing…"
        busy={remove.isPending}
        error={remove.isError ? problemMessage(remove.error) : null}
      >
        <p>“{toDelete?.DisplayName}” will no longer sign you in. The copy on your device stays there until you delete it in its settings.</p>
      </ConfirmDialog>
    </AccountSection>
  );
}
