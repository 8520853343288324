'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { CheckboxField, TextAreaField, TextField } from '@/components/ui/field';
import { EditFormFooter } from '../edit-form-footer';
import { JitFields } from './jit-fields';
import { friendlyRequired, providerFormSchema, providerValues, type ProviderBody, type ProviderValues } from './provider-form-values';
import { providerKeys, type ExternalFlavor, type LoginProvider } from './provider-types';
import { SectionFields } from './section-fields';

// Create and edit a login provider of one flavor (CONTRACT.md "External identity"). PUT replaces
// the settings, so the form sends everything it shows; the flavor never changes. Secrets are set
// on their own (provider-secret.tsx): they are write-only and not part of these settings.
const FIELDS: readonly Path<ProviderValues>[] = [
  'Name',
  'Slug',
  'IsActive',
  'Jit.Enabled',
  'Jit.DefaultGroupIds',
  'UserUpdateScript',
  'Oidc.Authority',
  'Oidc.ClientId',
  'Oidc.Scopes',
  'Saml.IdpMetadataXml',
  'Saml.IdpEntityId',
  'Saml.IdpSsoUrl',
  'Saml.IdpCertificate',
  'Ldap.Url',
  'Ldap.BindDn',
  'Ldap.UserSearchBase',
  'Ldap.UserSearchFilter',
  'Ldap.StartTls',
  'Ldap.CaCertificate',
  'Kerberos.Realm',
  'Kerberos.ServicePrincipal',
];

export function ProviderForm({
  flavor,
  provider,
  canWrite,
  canReadGroups,
  onSaved,
}: {
  flavor: ExternalFlavor;
  provider?: LoginProvider;
  canWrite: boolean;
  canReadGroups: boolean;
  onSaved: (p: LoginProvider) => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<ProviderValues, unknown, ProviderBody>({
    resolver: zodResolver(providerFormSchema(flavor), friendlyRequired),
    defaultValues: providerValues(provider),
  });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (provider && !form.formState.isDirty) form.reset(providerValues(provider));
  }, [provider, form]);

  const save = useMutation({
    mutationFn: (body: ProviderBody) =>
      provider
        ? api<LoginProvider>(`/api/admin/login-providers/${encodeURIComponent(provider.Id)}`, { method: 'PUT', body })
        : api<LoginProvider>('/api/admin/login-providers', { method: 'POST', body }),
    onSuccess: (p) => {
      queryClient.setQueryData(providerKeys.one(p.Id), p);
      void queryClient.invalidateQueries({ queryKey: providerKeys.all });
      form.reset(providerValues(p));
      setSaved(true);
      onSaved(p);
    },
    onError: (e) => report(e, { codeFields: { 'LoginProvider.SlugTaken': 'Slug' } }),
  });
  const errors = form.formState.errors;

  return (
    <form
      className="card"
      noValidate
      aria-label={provider ? 'Provider settings' : 'New login provider'}
      onSubmit={form.handleSubmit((body) => {
        clear();
        setSaved(false);
        save.mutate(body);
      })}
    >
      <div className="card-body">
        <fieldset className="fieldset form" disabled={!canWrite}>
          <ErrorSummary summary={summary} ref={summaryRef} />
          {saved && provider && !form.formState.isDirty ? <Alert tone="success" title="Changes saved." /> : null}
          <TextField label="Name" hint="Shown on the sign-in button." registration={form.register('Name')} error={errors.Name?.message} autoFocus={!provider} />
          {flavor === 'Saml' ? (
            <TextField
              label="Slug"
              hint="Names this provider's SAML addresses (/saml/<slug>/…); changing it means telling the IdP the new ones."
              registration={form.register('Slug')}
              error={errors.Slug?.message}
              spellCheck={false}
              autoComplete="off"
            />
          ) : null}
          <SectionFields flavor={flavor} register={form.register} errors={errors} />
          <JitFields control={form.control} register={form.register} error={errors.Jit?.DefaultGroupIds?.message} canReadGroups={canReadGroups} />
          <TextAreaField
            label="User update script"
            optional
            hint={
              <>
                The body of a JavaScript function <code>(claims, user)</code> run in a sandbox at every sign-in through this provider. Return{' '}
                <code>{'{ Email, Firstname, … }'}</code> to update the person, or <code>{'{ Deny: "reason" }'}</code> to refuse.
              </>
            }
            registration={form.register('UserUpdateScript')}
            error={errors.UserUpdateScript?.message}
            rows={5}
            spellCheck={false}
            className="textarea mono"
          />
          <CheckboxField
            label="Active"
            hint="Inactive providers offer no sign-in and are left out of the sign-in page."
            registration={form.register('IsActive')}
          />
        </fieldset>
      </div>
      {canWrite ? (
        <EditFormFooter
          editing={Boolean(provider)}
          dirty={form.formState.isDirty}
          busy={save.isPending}
          createLabel="Create provider"
          cancelHref="/console/login-providers"
          onDiscard={() => {
            if (provider) form.reset(providerValues(provider));
            clear();
          }}
        />
      ) : null}
    </form>
  );
}
