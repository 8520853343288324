'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { api, problemMessage } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { CheckboxList } from '@/components/ui/checkbox-list';
import { CheckboxField, SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { createClientSchema } from '@/lib/domain/oauth-clients/schemas';
import { newServiceAccountSchema } from '@/lib/domain/client-intents/schemas';
import { useAppLookup } from '../directory-queries';
import { scopeOptions, useAllScopes } from '../oauth-queries';
import {
  ACCESS_TOKEN_TYPES,
  CAPABILITY_OPTIONS,
  CLIENT_TYPES,
  CONSENT_TYPES,
  GRANT_TYPE_OPTIONS,
  linesOf,
  oauthKeys,
  type CreatedClient,
  type OAuthClient,
} from '../oauth-types';
import { EditFormFooter } from '../edit-form-footer';
import { ClientIntentFields, SERVICE_ACCOUNT_MODES, type ClientIntentOptions } from './client-intent-fields';

// Create and edit an OAuth client (CONTRACT.md `POST /api/admin/oauth/clients`). Edits are a
// merge-patch: the form sends every field it shows, so what is on screen is what is stored.
// ClientId and ClientType never change.
// The browser checks only what it can know; the coherence rules (redirect URIs for
// authorization_code, ...) are the server's, and its field errors land next to the fields.
// The form's rules are the API's (createClientSchema): only the shapes differ where the form edits
// a list as lines of text, and the choices the form always makes are required here.
const rules = createClientSchema.shape;
const schema = createClientSchema
  .pick({ ClientId: true, DisplayName: true, Description: true, ClientType: true })
  .extend({
    ConsentType: rules.ConsentType.unwrap().unwrap(),
    AccessTokenType: rules.AccessTokenType.unwrap().unwrap(),
    RedirectUris: z.string(),
    PostLogoutRedirectUris: z.string(),
    GrantTypes: rules.GrantTypes.min(1, 'Choose at least one grant type.'),
    Scopes: rules.Scopes.unwrap().unwrap(),
    AppId: rules.AppId.unwrap().unwrap(),
    Capabilities: rules.Capabilities.unwrap().unwrap(),
    IsActive: z.boolean(),
    // Create only: what else the client is (client-intent-fields.tsx).
    PositionId: z.string(),
    ServiceAccountMode: z.enum(SERVICE_ACCOUNT_MODES),
    ServiceAccountId: z.string(),
    NewServiceAccountName: z.string(),
    NewServiceAccountDescription: newServiceAccountSchema.shape.Description,
  })
  .superRefine((v, ctx) => {
    if (v.ServiceAccountMode === 'existing' && !v.ServiceAccountId)
      ctx.addIssue({ code: 'custom', path: ['ServiceAccountId'], message: 'Choose a service account.' });
    if (v.ServiceAccountMode === 'new') {
      const name = newServiceAccountSchema.shape.Name.safeParse(v.NewServiceAccountName);
      if (!name.success) ctx.addIssue({ code: 'custom', path: ['NewServiceAccountName'], message: name.error.issues[0]?.message ?? 'Enter a name.' });
    }
  });
type Values = z.infer<typeof schema>;
const FIELDS = [
  'ClientId',
  'DisplayName',
  'Description',
  'ClientType',
  'ConsentType',
  'AccessTokenType',
  'RedirectUris',
  'PostLogoutRedirectUris',
  'GrantTypes',
  'Scopes',
  'AppId',
  'Capabilities',
  'IsActive',
  'PositionId',
  'ServiceAccountId',
  'NewServiceAccountName',
] as const;

const NO_INTENT = { PositionId: '', ServiceAccountMode: 'none', ServiceAccountId: '', NewServiceAccountName: '', NewServiceAccountDescription: '' } as const;

const pick = <T extends string>(all: readonly T[], v: string, fallback: T): T => all.find((x) => x === v) ?? fallback;

function valuesOf(c?: OAuthClient): Values {
  if (!c)
    return {
      ClientId: '',
      DisplayName: '',
      Description: '',
      ClientType: 'Confidential',
      ConsentType: 'Explicit',
      AccessTokenType: 'Jwt',
      RedirectUris: '',
      PostLogoutRedirectUris: '',
      GrantTypes: ['authorization_code', 'refresh_token'],
      // What a sign-in needs (the API's default too).
      Scopes: ['openid'],
      AppId: '',
      Capabilities: [],
      IsActive: true,
      ...NO_INTENT,
    };
  return {
    ClientId: c.ClientId,
    DisplayName: c.DisplayName,
    Description: c.Description ?? '',
    ClientType: pick(CLIENT_TYPES, c.ClientType, 'Confidential'),
    ConsentType: pick(CONSENT_TYPES, c.ConsentType, 'Explicit'),
    AccessTokenType: pick(ACCESS_TOKEN_TYPES, c.AccessTokenType, 'Jwt'),
    RedirectUris: c.RedirectUris.join('\n'),
    PostLogoutRedirectUris: c.PostLogoutRedirectUris.join('\n'),
    GrantTypes: c.GrantTypes,
    Scopes: c.Scopes,
    AppId: c.AppId ?? '',
    Capabilities: c.Capabilities,
    IsActive: c.IsActive,
    ...NO_INTENT,
  };
}

function bodyOf(v: Values, creating: boolean) {
  const common = {
    DisplayName: v.DisplayName,
    Description: v.Description || null,
    ConsentType: v.ConsentType,
    AccessTokenType: v.AccessTokenType,
    RedirectUris: linesOf(v.RedirectUris),
    PostLogoutRedirectUris: linesOf(v.PostLogoutRedirectUris),
    GrantTypes: v.GrantTypes,
    Scopes: v.Scopes,
    // Blank clears the App: the roles and permissions scopes then carry the built-in App's.
    AppId: v.AppId || null,
    Capabilities: v.Capabilities,
    IsActive: v.IsActive,
  };
  if (!creating) return common;
  const intents = {
    PositionId: v.PositionId || null,
    ServiceAccountId: v.ServiceAccountMode === 'existing' ? v.ServiceAccountId : null,
    NewServiceAccount: v.ServiceAccountMode === 'new' ? { Name: v.NewServiceAccountName, Description: v.NewServiceAccountDescription || null } : null,
  };
  // A blank ClientId asks the server for a random one.
  return { ...common, ClientId: v.ClientId || null, ClientType: v.ClientType, ...intents };
}

export function ClientForm({
  client,
  canWrite,
  canReadScopes,
  intents,
  presetPositionId,
  onSaved,
}: {
  client?: OAuthClient;
  canWrite: boolean;
  canReadScopes: boolean;
  /** On create: the intents this user may choose. */
  intents?: ClientIntentOptions;
  /** On create: start as a terminal of this position (from the position's page). */
  presetPositionId?: string;
  onSaved: (c: CreatedClient) => void;
}) {
  const queryClient = useQueryClient();
  const scopes = useAllScopes(canReadScopes);
  const apps = useAppLookup();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: presetPositionId ? terminalValues(presetPositionId) : valuesOf(client) });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  // The select gets its options only once the Apps are loaded: put the chosen App back then.
  useEffect(() => {
    if (apps.data) form.setValue('AppId', form.getValues('AppId'));
  }, [apps.data, form]);
  const [saved, setSaved] = useState(false);
  const clientType = useWatch({ control: form.control, name: 'ClientType' });
  const serviceAccountMode = useWatch({ control: form.control, name: 'ServiceAccountMode' });
  // A terminal or a service account's client is Confidential with client credentials (exactly that grant for an account).
  const fitIntent = () => {
    const v = form.getValues();
    if (!v.PositionId && v.ServiceAccountMode === 'none') return;
    form.setValue('ClientType', 'Confidential', { shouldDirty: true });
    const grants = v.ServiceAccountMode === 'none' ? [...new Set([...v.GrantTypes, 'client_credentials'])] : ['client_credentials'];
    form.setValue('GrantTypes', grants, { shouldDirty: true });
  };

  useEffect(() => {
    if (client && !form.formState.isDirty) form.reset(valuesOf(client));
  }, [client, form]);

  const save = useMutation({
    mutationFn: (v: Values) =>
      client
        ? api<OAuthClient>(`/api/admin/oauth/clients/${encodeURIComponent(client.Id)}`, { method: 'PUT', body: bodyOf(v, false) })
        : api<CreatedClient>('/api/admin/oauth/clients', { method: 'POST', body: bodyOf(v, true) }),
    onSuccess: (c) => {
      // Never cache the create answer: it may carry the secret.
      const { ClientSecret: _secret, ...stored } = c as CreatedClient;
      queryClient.setQueryData(oauthKeys.client(c.Id), stored);
      void queryClient.invalidateQueries({ queryKey: oauthKeys.clients });
      form.reset(valuesOf(c));
      setSaved(true);
      onSaved(c);
    },
    onError: (e) =>
      report(e, { codeFields: { 'OAuthClient.ClientIdTaken': 'ClientId', 'ServiceAccount.NameTaken': 'NewServiceAccountName', 'App.NotFound': 'AppId' } }),
  });

  const errors = form.formState.errors;
  const managed = Boolean(client?.ServiceAccountId);
  const readOnly = !canWrite || managed;
  const grantOptions = GRANT_TYPE_OPTIONS.map((g) => ({
    value: g.value,
    label: g.label,
    hint: <span className="mono">{g.value}</span>,
    // The API refuses client_credentials on a public client; say so before the round trip.
    disabled: g.confidentialOnly && clientType === 'Public',
  }));
  const capabilityOptions = [
    ...CAPABILITY_OPTIONS.map((c) => ({ value: c.value, label: c.label, hint: c.hint, disabled: clientType === 'Public' })),
    // A capability the client holds that this console does not know stays visible, so it can be removed.
    ...(client?.Capabilities ?? [])
      .filter((c) => !CAPABILITY_OPTIONS.some((o) => o.value === c))
      .map((c) => ({ value: c, label: c, hint: 'Not a capability this version knows.' })),
  ];

  return (
    <form
      className="card"
      noValidate
      aria-label={client ? 'Client settings' : 'New OAuth client'}
      onSubmit={form.handleSubmit((v) => {
        clear();
        setSaved(false);
        save.mutate(v);
      })}
    >
      <div className="card-body">
        <fieldset className="fieldset form" disabled={readOnly}>
          <ErrorSummary summary={summary} ref={summaryRef} />
          {saved && client && !form.formState.isDirty ? <Alert tone="success" title="Changes saved." /> : null}
          {managed ? (
            <Alert title="Managed by a service account">
              <p>
                This client is a service-account credential. Change, rotate or delete it on{' '}
                <Link href={`/console/service-accounts/${encodeURIComponent(client?.ServiceAccountId ?? '')}`}>the service account’s page</Link>.
              </p>
            </Alert>
          ) : null}
          <div className="form-grid">
            <TextField label="Display name" registration={form.register('DisplayName')} error={errors.DisplayName?.message} autoFocus={!client} />
            {client ? (
              <ReadOnlyValue label="Client ID" value={client.ClientId} hint="A client keeps its id." mono />
            ) : (
              <TextField
                label="Client ID"
                optional
                hint="Leave empty for a random id."
                registration={form.register('ClientId')}
                error={errors.ClientId?.message}
                spellCheck={false}
                autoComplete="off"
              />
            )}
          </div>
          <TextAreaField label="Description" optional registration={form.register('Description')} error={errors.Description?.message} rows={2} />
          <div className="form-grid">
            {client ? (
              <ReadOnlyValue label="Client type" value={client.ClientType} hint="To change the type, create another client." />
            ) : (
              <SelectField
                label="Client type"
                hint="Confidential clients get a secret; Public ones (browser, mobile) use PKCE."
                registration={form.register('ClientType', {
                  onChange: () => {
                    form.setValue(
                      'GrantTypes',
                      form.getValues('GrantTypes').filter((g) => g !== 'client_credentials'),
                    );
                    // Every capability needs a Confidential client.
                    if (form.getValues('ClientType') === 'Public') form.setValue('Capabilities', []);
                  },
                })}
                error={errors.ClientType?.message}
              >
                {CLIENT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </SelectField>
            )}
            <SelectField
              label="Consent"
              hint="Explicit shows the consent page; Implicit grants what is asked."
              registration={form.register('ConsentType')}
              error={errors.ConsentType?.message}
            >
              {CONSENT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="Access token type"
              hint="Jwt: self-contained; Reference: opaque, read by introspection."
              registration={form.register('AccessTokenType')}
              error={errors.AccessTokenType?.message}
            >
              {ACCESS_TOKEN_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </SelectField>
          </div>
          {!client && intents ? (
            <ClientIntentFields
              options={intents}
              mode={serviceAccountMode}
              register={{
                position: form.register('PositionId', { onChange: fitIntent }),
                mode: form.register('ServiceAccountMode', { onChange: fitIntent }),
                account: form.register('ServiceAccountId'),
                newName: form.register('NewServiceAccountName'),
                newDescription: form.register('NewServiceAccountDescription'),
              }}
              errors={{
                PositionId: errors.PositionId?.message,
                ServiceAccountId: errors.ServiceAccountId?.message,
                NewServiceAccountName: errors.NewServiceAccountName?.message,
                NewServiceAccountDescription: errors.NewServiceAccountDescription?.message,
              }}
            />
          ) : null}
          <Controller
            control={form.control}
            name="GrantTypes"
            render={({ field }) => (
              <CheckboxList legend="Grant types" options={grantOptions} value={field.value} onChange={field.onChange} error={errors.GrantTypes?.message} />
            )}
          />
          <TextAreaField
            label="Redirect URIs"
            optional
            hint="One a line. Needed for the authorization code grant."
            registration={form.register('RedirectUris')}
            error={errors.RedirectUris?.message}
            rows={3}
            spellCheck={false}
            className="textarea mono"
          />
          <TextAreaField
            label="Post-logout redirect URIs"
            optional
            hint="One a line."
            registration={form.register('PostLogoutRedirectUris')}
            error={errors.PostLogoutRedirectUris?.message}
            rows={2}
            spellCheck={false}
            className="textarea mono"
          />
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
                    hint="What the client may ask for. Signing people in needs openid; add email and profile for their e-mail address and name."
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
            <p className="muted small">Scopes: {client?.Scopes.join(', ') || 'none'}. Choosing scopes needs the permission oauth-scope:read.</p>
          )}
          <SelectField
            label="Application"
            optional
            hint="The application whose roles and permissions the roles and permissions scopes carry. None: the built-in application."
            registration={form.register('AppId')}
            error={errors.AppId?.message}
          >
            <option value="">None</option>
            {(apps.data ?? []).map((a) => (
              <option key={a.Id} value={a.Id}>
                {a.DisplayName} ({a.Slug})
              </option>
            ))}
            {client?.AppId && apps.data && !apps.data.some((a) => a.Id === client.AppId) ? (
              <option value={client.AppId}>{client.AppId} (not found)</option>
            ) : null}
          </SelectField>
          <Controller
            control={form.control}
            name="Capabilities"
            render={({ field }) => (
              <CheckboxList
                legend="Capabilities"
                hint={clientType === 'Public' ? 'Capabilities need a Confidential client.' : 'What the client may do beyond the usual grants.'}
                options={capabilityOptions}
                value={field.value}
                onChange={field.onChange}
                error={errors.Capabilities?.message}
              />
            )}
          />
          {client ? (
            <CheckboxField label="Active" hint="Deactivating revokes the tokens issued to the client." registration={form.register('IsActive')} />
          ) : null}
        </fieldset>
      </div>
      {!readOnly ? (
        <EditFormFooter
          editing={Boolean(client)}
          dirty={form.formState.isDirty}
          busy={save.isPending}
          createLabel="Create client"
          cancelHref="/console/oauth/clients"
          onDiscard={() => {
            if (client) form.reset(valuesOf(client));
            clear();
          }}
        />
      ) : null}
    </form>
  );
}

/** A new client that starts as a terminal of the position (the link on a position's page). */
function terminalValues(positionId: string): Values {
  return { ...valuesOf(), PositionId: positionId, ClientType: 'Confidential', GrantTypes: ['client_credentials'], Scopes: [] };
}

/** A value shown where an input would be, for fields that cannot change (as role-form.tsx does). */
function ReadOnlyValue({ label, value, hint, mono }: { label: string; value: string; hint: string; mono?: boolean }) {
  return (
    <div className="field">
      <span className="field-label">{label}</span>
      <span className={mono ? 'input mono' : 'input'} aria-readonly="true">
        {value}
      </span>
      <span className="field-hint">{hint}</span>
    </div>
  );
}
