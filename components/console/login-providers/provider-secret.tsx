'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, ApiError, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { providerSecretSchema } from '@/lib/domain/login-providers/schemas';
import { providerKeys, SECRET_LABELS, type LoginProvider, type SecretField } from './provider-types';

const HINTS: Record<SecretField, string> = {
  ClientSecret: 'The secret the upstream issued for the client ID above.',
  BindPassword: 'The password of the bind DN above.',
  Keytab: 'The keytab file holding the key of the service principal above (made with ktpass or kadmin).',
};

/** A file's bytes as base64, read in the browser (the API takes the keytab as base64). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * The provider's secret (POST {id}/secret): write-only. The page shows whether one is set, never a
 * value; the input is cleared as soon as the server has it, and the value is not cached anywhere.
 */
export function ProviderSecret({ provider, field }: { provider: LoginProvider; field: SecretField }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [value, setValue] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const label = SECRET_LABELS[field];
  const set = useMutation({
    mutationFn: async () => {
      const raw = field === 'Keytab' ? (file ? await base64Of(file) : '') : value;
      if (!raw) throw new Error(field === 'Keytab' ? 'Choose the keytab file.' : `Enter the ${label.toLowerCase()}.`);
      // The API's rule for the field (a length limit): said before the upload.
      if (!providerSecretSchema.shape[field].safeParse(raw).success) throw new Error(`This ${label.toLowerCase()} is too large.`);
      await api(`/api/admin/login-providers/${encodeURIComponent(provider.Id)}/secret`, { method: 'POST', body: { [field]: raw } });
    },
    onSuccess: () => {
      setValue('');
      setFile(null);
      setDone(true);
      void queryClient.invalidateQueries({ queryKey: providerKeys.one(provider.Id) });
      void queryClient.invalidateQueries({ queryKey: providerKeys.all });
    },
    onError: (e) => setError(e instanceof ApiError || !(e instanceof Error) ? problemMessage(e) : e.message),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setDone(false);
    set.mutate();
  };
  return (
    <section className="card" aria-labelledby={`${inputId}-heading`}>
      <div className="card-header row-between">
        <h2 id={`${inputId}-heading`}>Secret</h2>
        <span className={provider.HasSecret ? 'badge badge-success' : 'badge'} data-testid="secret-state">
          {provider.HasSecret ? 'set' : 'not set'}
        </span>
      </div>
      <form className="card-body form" noValidate onSubmit={submit}>
        {done ? <Alert tone="success" title={`${label} saved. It is stored encrypted and never shown again.`} /> : null}
        {error ? <Alert tone="danger" title={error} /> : null}
        <div className="field">
          <label className="field-label" htmlFor={inputId}>
            {provider.HasSecret ? `New ${label.toLowerCase()}` : label}
          </label>
          {field === 'Keytab' ? (
            <input
              id={inputId}
              type="file"
              className="input"
              aria-describedby={`${inputId}-hint`}
              onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
              key={done ? 'cleared' : 'input'}
            />
          ) : (
            <input
              id={inputId}
              type="password"
              className="input"
              autoComplete="new-password"
              aria-describedby={`${inputId}-hint`}
              value={value}
              onChange={(e) => setValue(e.currentTarget.value)}
            />
          )}
          <p className="field-hint" id={`${inputId}-hint`}>
            {HINTS[field]} Write-only: it is stored encrypted and never shown.
          </p>
        </div>
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={set.isPending} busyLabel="Saving…">
            {provider.HasSecret ? `Replace ${label.toLowerCase()}` : `Set ${label.toLowerCase()}`}
          </Button>
        </div>
      </form>
    </section>
  );
}
