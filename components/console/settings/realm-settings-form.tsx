'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useFieldArray, useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CheckboxField, SelectField, TextField } from '@/components/ui/field';
import { QueryState } from '@/components/ui/query-state';
import { settingRules } from '@/lib/domain/realm-settings/schema';
import { rateLimitPolicyNames } from '@/lib/rate-limit/policies';
import { builtInLimit, describeLimit, dimensionChoices, newRow, overrideRowsSchema, overridesOf, rowsOf } from './rate-limit-rows';
import { settingsKey, type RealmSettings } from './types';

// The document's own rules (settingRules), with every field present: the form shows them all.
const policy = settingRules.fieldPolicy;
const schema = z.object({
  SelfRegistration: z.object({ Posture: settingRules.posture, RequireInviteCode: z.boolean() }),
  RegistrationFields: z.object({ Username: policy, Firstname: policy, Lastname: policy }),
  SignIn: z.object({ Password: z.boolean(), PasswordlessOnly: z.boolean(), EmailOtp: z.boolean(), MagicLink: z.boolean(), Passkeys: z.boolean() }),
  TwoFactor: z.object({ Required: z.boolean(), GracePeriodDays: settingRules.gracePeriodDays }),
  PasswordPolicy: z.object({ MinLength: settingRules.minPasswordLength, RejectCommon: z.boolean(), RejectContextual: z.boolean() }),
  Branding: z.object({
    ProductName: settingRules.productName,
    PrimaryColor: settingRules.primaryColor,
    LogoUrl: z.union([settingRules.logoUrl, z.literal('')]),
  }),
  Features: z.object({ PositionTerminals: z.boolean() }),
  Retention: z.object({ SecurityLogDays: settingRules.retentionDays }),
  NativeGrants: z.object({ Enabled: z.boolean() }),
  Dcr: z.object({ Enabled: z.boolean() }),
  Cimd: z.object({ Enabled: z.boolean() }),
  RateLimits: overrideRowsSchema,
});
type Values = z.infer<typeof schema>;

const FIELDS = [
  'SelfRegistration.Posture',
  'SelfRegistration.RequireInviteCode',
  'RegistrationFields.Username',
  'RegistrationFields.Firstname',
  'RegistrationFields.Lastname',
  'SignIn.Password',
  'SignIn.PasswordlessOnly',
  'SignIn.EmailOtp',
  'SignIn.MagicLink',
  'SignIn.Passkeys',
  'TwoFactor.Required',
  'TwoFactor.GracePeriodDays',
  'PasswordPolicy.MinLength',
  'PasswordPolicy.RejectCommon',
  'PasswordPolicy.RejectContextual',
  'Branding.ProductName',
  'Branding.PrimaryColor',
  'Branding.LogoUrl',
  'Features.PositionTerminals',
  'Retention.SecurityLogDays',
  'NativeGrants.Enabled',
  'Dcr.Enabled',
  'Cimd.Enabled',
  'RateLimits',
] as const;

function valuesOf(s: RealmSettings): Values {
  return {
    SelfRegistration: { ...s.SelfRegistration },
    RegistrationFields: { ...s.RegistrationFields },
    SignIn: { ...s.SignIn },
    TwoFactor: { ...s.TwoFactor },
    PasswordPolicy: { ...s.PasswordPolicy },
    Branding: { ProductName: s.Branding.ProductName ?? '', PrimaryColor: s.Branding.PrimaryColor, LogoUrl: s.Branding.LogoUrl ?? '' },
    Features: { ...s.Features },
    Retention: { ...s.Retention },
    NativeGrants: { ...s.NativeGrants },
    Dcr: { ...s.Dcr },
    Cimd: { ...s.Cimd },
    RateLimits: rowsOf(s.RateLimits),
  };
}

/** PUT replaces the document: the sections this form does not show are sent back as they were. */
function documentOf(v: Values, settings: RealmSettings): RealmSettings {
  return {
    ...settings,
    SelfRegistration: v.SelfRegistration,
    RegistrationFields: v.RegistrationFields,
    SignIn: v.SignIn,
    TwoFactor: v.TwoFactor,
    PasswordPolicy: v.PasswordPolicy,
    Branding: { PrimaryColor: v.Branding.PrimaryColor, ProductName: v.Branding.ProductName || undefined, LogoUrl: v.Branding.LogoUrl || undefined },
    Features: { ...settings.Features, ...v.Features },
    Retention: v.Retention,
    NativeGrants: v.NativeGrants,
    Dcr: v.Dcr,
    Cimd: v.Cimd,
    RateLimits: overridesOf(v.RateLimits),
  };
}

function Group({ title, description, children }: { title: string; description: ReactNode; children: ReactNode }) {
  const id = `settings-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section className="card" aria-labelledby={id}>
      <div className="card-header">
        <h2 id={id}>{title}</h2>
        <p className="muted small">{description}</p>
      </div>
      <div className="card-body">
        <fieldset className="fieldset form">
          <legend className="visually-hidden">{title}</legend>
          {children}
        </fieldset>
      </div>
    </section>
  );
}

const def = (text: string) => <span className="muted"> Default: {text}.</span>;

function FieldPolicySelect({
  form,
  name,
  label,
}: {
  form: UseFormReturn<Values>;
  name: 'RegistrationFields.Username' | 'RegistrationFields.Firstname' | 'RegistrationFields.Lastname';
  label: string;
}) {
  const error = form.formState.errors.RegistrationFields?.[name.split('.')[1] as 'Username']?.message;
  return (
    <SelectField
      label={label}
      registration={form.register(name)}
      error={error}
      hint={<>Off hides the field on the sign-up page; Required makes it mandatory.{def('Optional')}</>}
    >
      <option value="Off">Off</option>
      <option value="Optional">Optional</option>
      <option value="Required">Required</option>
    </SelectField>
  );
}

/** The realm settings document (issue 3 item 11), section by section, saved as a whole with PUT. */
export function RealmSettingsForm() {
  const settings = useQuery({ queryKey: settingsKey, queryFn: ({ signal }) => api<RealmSettings>('/api/realm-settings', { signal }) });
  return (
    <QueryState isPending={settings.isPending} error={settings.error} onRetry={() => settings.refetch()}>
      {settings.data ? <SettingsEditor settings={settings.data} /> : null}
    </QueryState>
  );
}

function SettingsEditor({ settings }: { settings: RealmSettings }) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: valuesOf(settings) });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!form.formState.isDirty) form.reset(valuesOf(settings));
  }, [settings, form]);
  const save = useMutation({
    mutationFn: (v: Values) => api<RealmSettings>('/api/realm-settings', { method: 'PUT', body: documentOf(v, settings) }),
    onSuccess: (s) => {
      queryClient.setQueryData(settingsKey, s);
      form.reset(valuesOf(s));
      setSaved(true);
    },
    onError: (e) => report(e),
  });
  const e = form.formState.errors;
  const r = form.register;
  return (
    <form
      className="stack"
      noValidate
      aria-label="Realm settings"
      onSubmit={form.handleSubmit((v) => {
        clear();
        setSaved(false);
        save.mutate(v);
      })}
    >
      <ErrorSummary summary={summary} ref={summaryRef} />
      {saved && !form.formState.isDirty ? <Alert tone="success" title="Settings saved. They apply to new sign-ins right away." /> : null}

      <Group title="Sign-in methods" description="How people prove who they are on this realm’s sign-in page. Applications may narrow these.">
        <CheckboxField label="Password" registration={r('SignIn.Password')} hint={<>User name or e-mail with a password.{def('on')}</>} />
        <CheckboxField
          label="Passwordless only"
          registration={r('SignIn.PasswordlessOnly')}
          hint={<>Refuse password sign-ins even for accounts that have one.{def('off')}</>}
        />
        <CheckboxField label="Code by e-mail" registration={r('SignIn.EmailOtp')} hint={<>A 6-digit code sent to the account’s address.{def('on')}</>} />
        <CheckboxField
          label="Link by e-mail (magic link)"
          registration={r('SignIn.MagicLink')}
          hint={<>A single-use sign-in link sent to the account’s address.{def('off')}</>}
        />
        <CheckboxField label="Passkeys" registration={r('SignIn.Passkeys')} hint={<>Fingerprint, face or device PIN through WebAuthn.{def('on')}</>} />
      </Group>

      <Group title="Two-factor authentication" description="A second step after the password: an authenticator app or another enrolled factor.">
        <CheckboxField
          label="Require two-factor authentication"
          registration={r('TwoFactor.Required')}
          hint={<>Every user must enrol a second factor.{def('off')}</>}
        />
        <TextField
          label="Grace period (days)"
          type="number"
          inputMode="numeric"
          registration={r('TwoFactor.GracePeriodDays', { valueAsNumber: true, min: 0, max: 365 })}
          error={e.TwoFactor?.GracePeriodDays?.message}
          hint={<>Users without a second factor may still sign in this long after it becomes required.{def('14')}</>}
        />
      </Group>

      <Group title="Password policy" description="Checked when a password is set, changed or reset.">
        <TextField
          label="Minimum length"
          type="number"
          inputMode="numeric"
          registration={r('PasswordPolicy.MinLength', { valueAsNumber: true, min: 8, max: 128 })}
          error={e.PasswordPolicy?.MinLength?.message}
          hint={<>Between 8 and 128 characters.{def('10')}</>}
        />
        <CheckboxField
          label="Reject common passwords"
          registration={r('PasswordPolicy.RejectCommon')}
          hint={<>Refuse passwords from the bundled list of common passwords.{def('on')}</>}
        />
        <CheckboxField
          label="Reject passwords containing personal details"
          registration={r('PasswordPolicy.RejectContextual')}
          hint={<>Refuse passwords that contain the user name, the e-mail’s local part or the realm’s name.{def('on')}</>}
        />
      </Group>

      <Group title="Self-registration" description="Whether people can create their own accounts in this realm.">
        <SelectField
          label="Sign-up"
          registration={r('SelfRegistration.Posture')}
          error={e.SelfRegistration?.Posture?.message}
          hint={
            <>
              Off: accounts are made by administrators. Sign-up page: anyone may register. On first e-mail code: an unknown address signing in by e-mail code
              gets an account.{def('Off')}
            </>
          }
        >
          <option value="Off">Off</option>
          <option value="ExplicitEndpoint">Sign-up page</option>
          <option value="JitOnOtp">On first e-mail code</option>
        </SelectField>
        <CheckboxField
          label="Require an invite code"
          registration={r('SelfRegistration.RequireInviteCode')}
          hint={<>Sign-up needs a single-use code from an administrator.{def('off')}</>}
        />
        <div className="form-grid">
          <FieldPolicySelect form={form} name="RegistrationFields.Username" label="User name on sign-up" />
          <FieldPolicySelect form={form} name="RegistrationFields.Firstname" label="First name on sign-up" />
          <FieldPolicySelect form={form} name="RegistrationFields.Lastname" label="Last name on sign-up" />
        </div>
      </Group>

      <Group title="Branding" description="How the hosted sign-in pages look for this realm.">
        <TextField
          label="Product name"
          optional
          registration={r('Branding.ProductName')}
          error={e.Branding?.ProductName?.message}
          hint={<>Shown instead of the realm’s display name.{def('the realm’s display name')}</>}
        />
        <div className="form-grid">
          <TextField
            label="Primary colour"
            registration={r('Branding.PrimaryColor')}
            error={e.Branding?.PrimaryColor?.message}
            hint={<>Hex colour of buttons and links.{def('#1f4f8f')}</>}
            spellCheck={false}
            autoComplete="off"
          />
          <TextField
            label="Logo address"
            optional
            type="url"
            registration={r('Branding.LogoUrl')}
            error={e.Branding?.LogoUrl?.message}
            hint={<>An https image address.{def('none (the initials)')}</>}
            spellCheck={false}
            autoComplete="off"
          />
        </div>
      </Group>

      <Group title="Features" description="Parts of the product this realm uses.">
        <CheckboxField
          label="Positions and terminals"
          registration={r('Features.PositionTerminals')}
          hint={<>Places such as tills or kiosks, and the OAuth clients that act there. While off, positions are hidden.{def('off')}</>}
        />
      </Group>

      <Group title="Security log" description="How long the realm keeps its security log. A background job deletes older entries; nothing else removes them.">
        <TextField
          label="Keep entries for (days)"
          type="number"
          inputMode="numeric"
          registration={r('Retention.SecurityLogDays', { valueAsNumber: true, min: 1, max: 3650 })}
          error={e.Retention?.SecurityLogDays?.message}
          hint={<>Between 1 and 3650 days.{def('365')}</>}
        />
      </Group>

      <Group title="OAuth" description="Ways of getting tokens beyond the usual browser sign-in. Each application may override these in its own settings.">
        <CheckboxField
          label="Native sign-in grants"
          registration={r('NativeGrants.Enabled')}
          hint={<>Apps sign people in without a browser: e-mailed code, magic link or passkey at the token endpoint.{def('off')}</>}
        />
        <CheckboxField
          label="Dynamic client registration"
          registration={r('Dcr.Enabled')}
          hint={<>Anyone may register an OAuth client at /connect/register (RFC 7591).{def('off')}</>}
        />
        <CheckboxField
          label="Client ID metadata documents"
          registration={r('Cimd.Enabled')}
          hint={<>A client_id that is an https address names its own metadata document, with no registration.{def('off')}</>}
        />
      </Group>

      <RateLimitOverrides form={form} />

      <div className="form-actions">
        <Button type="submit" variant="primary" busy={save.isPending} busyLabel="Saving…" disabled={!form.formState.isDirty}>
          Save settings
        </Button>
        {form.formState.isDirty ? (
          <Button
            variant="ghost"
            onClick={() => {
              form.reset(valuesOf(settings));
              clear();
            }}
          >
            Discard changes
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** The rate-limit overrides: rows of policy, dimension and ceiling; the choices are those the server accepts. */
function RateLimitOverrides({ form }: { form: UseFormReturn<Values> }) {
  const rows = useFieldArray({ control: form.control, name: 'RateLimits' });
  const values = useWatch({ control: form.control, name: 'RateLimits' });
  const errors = form.formState.errors.RateLimits;
  const listError = errors?.message ?? errors?.root?.message;
  return (
    <Group
      title="Rate limits"
      description="Overrides of the built-in ceilings. Each policy counts by some of: source address, target (a mailbox or account), OAuth client, application."
    >
      {rows.fields.length === 0 ? <p className="muted small">No overrides: the built-in limits apply.</p> : null}
      {rows.fields.length ? (
        <div className="table-wrap">
          <table className="table" aria-label="Rate-limit overrides">
            <thead>
              <tr>
                <th scope="col">Policy</th>
                <th scope="col">Counted by</th>
                <th scope="col">Points</th>
                <th scope="col">Window (seconds)</th>
                <th scope="col" className="actions">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.fields.map((field, i) => {
                const row = values?.[i] ?? field;
                const choices = dimensionChoices(row.Policy);
                const builtIn = builtInLimit(row.Policy, row.Dimension);
                const rowErrors = errors?.[i];
                const n = i + 1;
                return (
                  <tr key={field.id}>
                    <td>
                      <select
                        className="select"
                        aria-label={`Policy of override ${n}`}
                        aria-invalid={rowErrors?.Policy ? true : undefined}
                        {...form.register(`RateLimits.${i}.Policy`, {
                          onChange: (e: { target: { value: string } }) => {
                            // Keep the dimension if the new policy counts it, else take its first.
                            const next = dimensionChoices(e.target.value);
                            if (!next.includes(form.getValues(`RateLimits.${i}.Dimension`))) form.setValue(`RateLimits.${i}.Dimension`, next[0] ?? '');
                          },
                        })}
                      >
                        {!rateLimitPolicyNames.includes(row.Policy as never) ? <option value={row.Policy}>{row.Policy} (unknown)</option> : null}
                        {rateLimitPolicyNames.map((p) => (
                          <option key={p} value={p}>
                            {p}
                          </option>
                        ))}
                      </select>
                      {rowErrors?.Policy ? <p className="field-error">{rowErrors.Policy.message}</p> : null}
                    </td>
                    <td>
                      <select
                        className="select"
                        aria-label={`Counted by, override ${n}`}
                        aria-invalid={rowErrors?.Dimension ? true : undefined}
                        {...form.register(`RateLimits.${i}.Dimension`)}
                      >
                        {!choices.includes(row.Dimension) ? <option value={row.Dimension}>{row.Dimension} (not counted)</option> : null}
                        {choices.map((d) => (
                          <option key={d} value={d}>
                            {d}
                          </option>
                        ))}
                      </select>
                      {rowErrors?.Dimension ? <p className="field-error">{rowErrors.Dimension.message}</p> : null}
                      {builtIn ? <p className="field-hint">Built-in: {describeLimit(builtIn)}</p> : null}
                    </td>
                    <td>
                      <input
                        className="input"
                        type="number"
                        inputMode="numeric"
                        aria-label={`Points of override ${n}`}
                        aria-invalid={rowErrors?.Points ? true : undefined}
                        {...form.register(`RateLimits.${i}.Points`, { valueAsNumber: true })}
                      />
                      {rowErrors?.Points ? <p className="field-error">{rowErrors.Points.message}</p> : null}
                    </td>
                    <td>
                      <input
                        className="input"
                        type="number"
                        inputMode="numeric"
                        aria-label={`Window in seconds of override ${n}`}
                        aria-invalid={rowErrors?.DurationSeconds ? true : undefined}
                        {...form.register(`RateLimits.${i}.DurationSeconds`, { valueAsNumber: true })}
                      />
                      {rowErrors?.DurationSeconds ? <p className="field-error">{rowErrors.DurationSeconds.message}</p> : null}
                    </td>
                    <td className="actions">
                      <Button variant="ghost" size="sm" onClick={() => rows.remove(i)} aria-label={`Remove override ${n}`}>
                        Remove
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {listError ? <p className="field-error">{listError}</p> : null}
      <div>
        <Button onClick={() => rows.append(newRow(form.getValues('RateLimits')))}>Add override</Button>
      </div>
    </Group>
  );
}
