'use client';
import { Controller, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { z } from 'zod';
import { problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { CheckboxList } from '@/components/ui/checkbox-list';
import { TextField } from '@/components/ui/field';
import { createCredentialSchema } from '@/lib/domain/service-accounts/credential-schemas';
import { scopeOptions, type useAllScopes } from '../oauth-queries';

// The fields a credential's create form and edit dialog share: name, expiry and scopes, with the
// API's own rules (create and update validate DisplayName and Scopes alike).
const rules = createCredentialSchema.shape;
export const credentialFormSchema = z.object({
  DisplayName: rules.DisplayName.unwrap().unwrap(),
  Scopes: rules.Scopes.unwrap().unwrap(),
  // datetime-local: the administrator's local time, sent as an ISO instant; empty = never expires.
  ExpiresAt: z.string().refine((v) => !v || new Date(v).getTime() > Date.now(), 'Choose a moment in the future, or leave it empty.'),
});
export type CredentialValues = z.infer<typeof credentialFormSchema>;
export const CREDENTIAL_FIELDS = ['DisplayName', 'Scopes', 'ExpiresAt'] as const;

/** The datetime-local value as the ISO instant the API takes, or null for "never expires". */
export const expiresAtInstant = (v: CredentialValues): string | null => (v.ExpiresAt ? new Date(v.ExpiresAt).toISOString() : null);

/** Name and expiry. */
export function CredentialTextFields({
  register,
  errors,
  nameHint,
}: {
  register: UseFormRegister<CredentialValues>;
  errors: FieldErrors<CredentialValues>;
  nameHint: string;
}) {
  return (
    <>
      <TextField label="Credential name" optional hint={nameHint} registration={register('DisplayName')} error={errors.DisplayName?.message} />
      <TextField
        label="Expires"
        optional
        type="datetime-local"
        hint="Your local time. Empty: never expires."
        registration={register('ExpiresAt')}
        error={errors.ExpiresAt?.message}
      />
    </>
  );
}

/** The scopes to choose from (the caller shows it only with oauth-scope:read). */
export function CredentialScopesField({
  control,
  errors,
  scopes,
  hint,
}: {
  control: Control<CredentialValues>;
  errors: FieldErrors<CredentialValues>;
  scopes: ReturnType<typeof useAllScopes>;
  hint?: string;
}) {
  return (
    <>
      {scopes.isError ? (
        <Alert tone="danger" title="The scopes could not be loaded.">
          {problemMessage(scopes.error)}
        </Alert>
      ) : null}
      <Controller
        control={control}
        name="Scopes"
        render={({ field }) => (
          <CheckboxList
            legend="Scopes"
            hint={hint}
            options={scopeOptions(scopes.data?.items, field.value)}
            value={field.value}
            onChange={field.onChange}
            error={errors.Scopes?.message}
            empty={scopes.isPending ? 'Loading the scopes…' : 'This realm has no scopes.'}
          />
        )}
      />
    </>
  );
}
