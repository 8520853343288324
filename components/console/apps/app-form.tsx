'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useFieldArray, useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CheckboxField, SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { keys } from '../directory-types';
import { EditFormFooter } from '../edit-form-footer';
import { APP_FORM_FIELDS, appBody, appFormSchema, appFormValues, slugFrom, type App, type AppFormValues } from './app-form-values';
import { appKeys } from './app-keys';

// Create and edit an App (spec 4.7 "Applications"). PUT replaces the whole App, Settings included:
// every section has an "Inherit from the realm" switch (the section is sent as null), and within a
// section a blank field or "Inherit" choice inherits that field. A built-in App has no Settings of
// its own and keeps its slug.

type Props = { app?: App; canWrite: boolean; primaryDomain?: string; onSaved: (a: App) => void };

export function AppForm({ app, canWrite, primaryDomain, onSaved }: Props) {
  const queryClient = useQueryClient();
  const form = useForm<AppFormValues>({ resolver: zodResolver(appFormSchema), defaultValues: appFormValues(app) });
  const catalog = useFieldArray({ control: form.control, name: 'PermissionCatalog' });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, APP_FORM_FIELDS);
  const [saved, setSaved] = useState(false);
  const builtIn = Boolean(app?.IsBuiltIn);
  const readOnly = !canWrite;

  useEffect(() => {
    if (app && !form.formState.isDirty) form.reset(appFormValues(app));
  }, [app, form]);

  const save = useMutation({
    mutationFn: (v: AppFormValues) => {
      const body = appBody(v, builtIn);
      return app ? api<App>(`/api/app/${encodeURIComponent(app.Id)}`, { method: 'PUT', body }) : api<App>('/api/app', { method: 'POST', body });
    },
    onSuccess: (a) => {
      queryClient.setQueryData(keys.app(a.Id), a);
      void queryClient.invalidateQueries({ queryKey: appKeys.all });
      form.reset(appFormValues(a));
      setSaved(true);
      onSaved(a);
    },
    onError: (e) => report(e),
  });

  const e = form.formState.errors;
  const r = form.register;
  const subdomain = useWatch({ control: form.control, name: 'Settings.Origin.Subdomain' });
  const catalogError = e.PermissionCatalog?.message ?? e.PermissionCatalog?.root?.message;

  return (
    <form
      className="stack"
      noValidate
      aria-label={app ? 'Application settings' : 'New application'}
      onSubmit={form.handleSubmit((v) => {
        clear();
        setSaved(false);
        save.mutate(v);
      })}
    >
      <fieldset className="fieldset stack" disabled={readOnly}>
        <ErrorSummary summary={summary} ref={summaryRef} />
        {saved && app && !form.formState.isDirty ? <Alert tone="success" title="Changes saved. They apply on the application’s address right away." /> : null}

        <Section title="Application" description="How the application is named in roles, groups and tokens.">
          {builtIn ? (
            <Alert title="Built-in application">
              Its slug stays <span className="mono">{app?.Slug}</span> and it has no settings of its own: the realm settings apply to it.
            </Alert>
          ) : null}
          <div className="form-grid">
            <TextField
              label="Display name"
              registration={r('DisplayName', {
                // A new App's slug follows its name until someone types one.
                onChange: (event: { target: { value: string } }) => {
                  if (!app && !form.getFieldState('Slug').isDirty) form.setValue('Slug', slugFrom(event.target.value));
                },
              })}
              error={e.DisplayName?.message}
              autoFocus={!app}
            />
            <TextField
              label="Slug"
              registration={r('Slug')}
              error={e.Slug?.message}
              readOnly={builtIn}
              spellCheck={false}
              autoComplete="off"
              hint="Lower-case letters, digits and hyphens. Groups name the application by it; renaming it updates them."
            />
          </div>
          <TextAreaField label="Description" optional rows={2} registration={r('Description')} error={e.Description?.message} />
        </Section>

        <Section title="Permission catalog" description="The permissions this application’s roles can grant.">
          {catalogError ? (
            <p className="field-error" role="alert">
              {catalogError}
            </p>
          ) : null}
          {catalog.fields.length === 0 ? <p className="muted">No permissions yet.</p> : null}
          <div className="stack-sm" role="list" aria-label="Permissions">
            {catalog.fields.map((field, i) => (
              <div key={field.id} className="form-grid" role="listitem">
                <TextField
                  label={`Permission ${i + 1}`}
                  registration={r(`PermissionCatalog.${i}.Name`)}
                  error={e.PermissionCatalog?.[i]?.Name?.message}
                  spellCheck={false}
                  autoComplete="off"
                  placeholder="orders:read"
                />
                <div className="row">
                  <TextField label={`Description of permission ${i + 1}`} optional registration={r(`PermissionCatalog.${i}.Description`)} />
                  {!readOnly ? (
                    <Button variant="ghost" onClick={() => catalog.remove(i)}>
                      Remove<span className="visually-hidden"> permission {i + 1}</span>
                    </Button>
                  ) : null}
                </div>
              </div>
            ))}
          </div>
          {!readOnly ? (
            <div>
              <Button variant="secondary" onClick={() => catalog.append({ Name: '', Description: '' })}>
                Add permission
              </Button>
            </div>
          ) : null}
        </Section>

        {builtIn ? null : <SettingsSections form={form} subdomain={subdomain} primaryDomain={primaryDomain} />}
      </fieldset>
      {!readOnly ? (
        <div className="card">
          <EditFormFooter
            editing={Boolean(app)}
            dirty={form.formState.isDirty}
            busy={save.isPending}
            createLabel="Create application"
            cancelHref="/console/apps"
            onDiscard={() => {
              if (app) form.reset(appFormValues(app));
              clear();
            }}
          />
        </div>
      ) : null}
    </form>
  );
}

function Section({ title, description, children }: { title: string; description: ReactNode; children: ReactNode }) {
  const id = `app-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section className="card" aria-labelledby={id}>
      <div className="card-header">
        <h2 id={id}>{title}</h2>
        <p className="muted small">{description}</p>
      </div>
      <div className="card-body form">{children}</div>
    </section>
  );
}

type SectionName = 'Branding' | 'EmailBranding' | 'SelfRegistration' | 'RegistrationFields' | 'NativeGrants' | 'Dcr' | 'Cimd';

/** A Settings section: "Inherit from the realm" (sent as null) or its own fields. */
function Overridable({
  form,
  name,
  title,
  description,
  children,
}: {
  form: UseFormReturn<AppFormValues>;
  name: SectionName;
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  const inherit = useWatch({ control: form.control, name: `Settings.${name}.Inherit` });
  return (
    <Section title={title} description={description}>
      <CheckboxField
        label="Inherit from the realm"
        registration={form.register(`Settings.${name}.Inherit`)}
        hint={
          inherit
            ? 'The realm settings apply. Turn this off to override them for this application.'
            : 'Blank fields and “Inherit” choices still follow the realm.'
        }
      />
      {inherit ? null : <fieldset className="fieldset form">{children}</fieldset>}
    </Section>
  );
}

const INHERIT = <option value="">Inherit from the realm</option>;

type TriStateName = 'Settings.SelfRegistration.RequireInviteCode' | 'Settings.NativeGrants.Enabled' | 'Settings.Dcr.Enabled' | 'Settings.Cimd.Enabled';

function TriStateSelect({ form, name, label }: { form: UseFormReturn<AppFormValues>; name: TriStateName; label: string }) {
  return (
    <SelectField label={label} registration={form.register(name)}>
      {INHERIT}
      <option value="true">On</option>
      <option value="false">Off</option>
    </SelectField>
  );
}

function SettingsSections({ form, subdomain, primaryDomain }: { form: UseFormReturn<AppFormValues>; subdomain: string; primaryDomain?: string }) {
  const e = form.formState.errors.Settings;
  const r = form.register;
  const address = subdomain.trim() && primaryDomain ? `${subdomain.trim().toLowerCase()}.${primaryDomain}` : null;
  const policy = (field: 'Username' | 'Firstname' | 'Lastname', label: string) => (
    <SelectField label={label} registration={r(`Settings.RegistrationFields.${field}`)} error={e?.RegistrationFields?.[field]?.message}>
      {INHERIT}
      <option value="Off">Off</option>
      <option value="Optional">Optional</option>
      <option value="Required">Required</option>
    </SelectField>
  );
  return (
    <>
      <Section title="Address" description="Where people reach this application’s sign-in and sign-up pages.">
        <TextField
          label="Subdomain"
          optional
          registration={r('Settings.Origin.Subdomain')}
          error={e?.Origin?.Subdomain?.message}
          spellCheck={false}
          autoComplete="off"
          hint={
            address ? (
              <>
                Pages on <span className="mono">{address}</span> use this application’s settings.
              </>
            ) : (
              'A subdomain of the realm’s primary domain gives the application an address of its own. Leave it blank for none.'
            )
          }
        />
      </Section>

      <Overridable form={form} name="Branding" title="Branding" description="How the hosted pages look on the application’s address.">
        <TextField label="Product name" optional registration={r('Settings.Branding.ProductName')} error={e?.Branding?.ProductName?.message} />
        <div className="form-grid">
          <TextField
            label="Primary colour"
            optional
            registration={r('Settings.Branding.PrimaryColor')}
            error={e?.Branding?.PrimaryColor?.message}
            hint="A hex colour like #1f4f8f."
            spellCheck={false}
          />
          <TextField
            label="Logo address"
            optional
            type="url"
            registration={r('Settings.Branding.LogoUrl')}
            error={e?.Branding?.LogoUrl?.message}
            spellCheck={false}
          />
        </div>
      </Overridable>

      <Overridable
        form={form}
        name="EmailBranding"
        title="E-mail branding"
        description="How mail sent for this application looks. Blank fields follow its branding, then the realm’s."
      >
        <div className="form-grid">
          <TextField
            label="Product name in mail"
            optional
            registration={r('Settings.EmailBranding.ProductName')}
            error={e?.EmailBranding?.ProductName?.message}
          />
          <TextField
            label="Sender name"
            optional
            registration={r('Settings.EmailBranding.SenderName')}
            error={e?.EmailBranding?.SenderName?.message}
            hint="The From name; the address stays the realm’s."
          />
          <TextField
            label="Colour in mail"
            optional
            registration={r('Settings.EmailBranding.PrimaryColor')}
            error={e?.EmailBranding?.PrimaryColor?.message}
            spellCheck={false}
          />
          <TextField
            label="Logo in mail"
            optional
            type="url"
            registration={r('Settings.EmailBranding.LogoUrl')}
            error={e?.EmailBranding?.LogoUrl?.message}
            spellCheck={false}
          />
        </div>
        <TextAreaField
          label="Footer line"
          optional
          rows={2}
          registration={r('Settings.EmailBranding.FooterText')}
          error={e?.EmailBranding?.FooterText?.message}
          hint="For example a postal address."
        />
      </Overridable>

      <Overridable
        form={form}
        name="SelfRegistration"
        title="Self-registration"
        description="Whether people can create their own accounts through this application."
      >
        <SelectField label="Sign-up" registration={r('Settings.SelfRegistration.Posture')} error={e?.SelfRegistration?.Posture?.message}>
          {INHERIT}
          <option value="Off">Off</option>
          <option value="ExplicitEndpoint">Sign-up page</option>
          <option value="JitOnOtp">On first e-mail code</option>
        </SelectField>
        <TriStateSelect form={form} name="Settings.SelfRegistration.RequireInviteCode" label="Require an invite code" />
      </Overridable>

      <Overridable
        form={form}
        name="RegistrationFields"
        title="Sign-up fields"
        description="Which fields the sign-up page asks for. The e-mail address is always required."
      >
        <div className="form-grid">
          {policy('Username', 'User name')}
          {policy('Firstname', 'First name')}
          {policy('Lastname', 'Last name')}
        </div>
      </Overridable>

      <Overridable
        form={form}
        name="NativeGrants"
        title="Native sign-in"
        description="Cookieless sign-in for mobile and desktop apps by e-mail code, link or passkey."
      >
        <TriStateSelect form={form} name="Settings.NativeGrants.Enabled" label="Native sign-in" />
      </Overridable>
      <Overridable form={form} name="Dcr" title="Dynamic client registration" description="Whether OAuth clients may register themselves.">
        <TriStateSelect form={form} name="Settings.Dcr.Enabled" label="Dynamic client registration" />
      </Overridable>
      <Overridable
        form={form}
        name="Cimd"
        title="Client metadata documents"
        description="Whether a client may be named by the https address of its metadata document."
      >
        <TriStateSelect form={form} name="Settings.Cimd.Enabled" label="Client metadata documents" />
      </Overridable>
    </>
  );
}

/** The realm's primary domain, for the address preview (public metadata). */
export function usePrimaryDomain(): string | undefined {
  const info = useQuery({ queryKey: ['app-info'], queryFn: ({ signal }) => api<{ PrimaryDomain: string }>('/api/app-info', { signal }), staleTime: 60_000 });
  return info.data?.PrimaryDomain;
}
