'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { api } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button, buttonClass } from '@/components/ui/button';
import { CheckboxField, TextAreaField, TextField } from '@/components/ui/field';
import { SecretOnce } from '@/components/console/secret-once';
import { InviteResult } from './invite-result';
import { initialAdminSchema } from '@/lib/domain/invites/schemas';
import { createRealmSchema } from '@/lib/domain/realms/schemas';
import { realmSlugRule } from '@/lib/domain/realms/slug';
import { parseDomains, realmKeys, slugFrom, type ImportRealmResult } from './types';

// The API's rules (createRealmSchema, the slug rules); the administrator's fields are checked with
// the API's initialAdminSchema only when an invitation is asked for.
const schema = createRealmSchema
  .pick({ DisplayName: true, Description: true })
  .extend({
    Slug: realmSlugRule,
    Domains: z.string().refine((t) => parseDomains(t).length > 0, 'Enter at least one domain.'),
    inviteAdmin: z.boolean(),
    InitialAdmin: z.object({ UserName: z.string(), Email: z.string(), Firstname: z.string(), Lastname: z.string() }),
  })
  .superRefine((v, ctx) => {
    if (!v.inviteAdmin) return;
    for (const issue of initialAdminSchema.safeParse(v.InitialAdmin).error?.issues ?? []) {
      ctx.addIssue({ code: 'custom', path: ['InitialAdmin', ...issue.path], message: issue.message });
    }
  });
type Values = z.infer<typeof schema>;
const FIELDS = [
  'DisplayName',
  'Slug',
  'Description',
  'Domains',
  'InitialAdmin.UserName',
  'InitialAdmin.Email',
  'InitialAdmin.Firstname',
  'InitialAdmin.Lastname',
] as const;

/** A manifest file chosen to start the realm from (POST /api/admin/realms/import). */
type StartManifest = { fileName: string; value: unknown };

export function CreateRealmForm() {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<ImportRealmResult | null>(null);
  const [manifest, setManifest] = useState<StartManifest | null>(null);
  const [manifestError, setManifestError] = useState<string | null>(null);
  const manifestId = useId();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: {
      DisplayName: '',
      Slug: '',
      Description: '',
      Domains: '',
      inviteAdmin: true,
      InitialAdmin: { UserName: '', Email: '', Firstname: '', Lastname: '' },
    },
  });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const [displayName, inviteAdmin] = useWatch({ control: form.control, name: ['DisplayName', 'inviteAdmin'] });

  // The slug follows the display name until someone edits it.
  useEffect(() => {
    if (!form.getFieldState('Slug').isDirty) form.setValue('Slug', slugFrom(displayName));
  }, [displayName, form]);

  const readManifest = async (file: File | undefined) => {
    setManifest(null);
    setManifestError(null);
    if (!file) return;
    try {
      setManifest({ fileName: file.name, value: JSON.parse(await file.text()) as unknown });
    } catch (e) {
      setManifestError(`${file.name} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  // With a manifest the realm is made by the import route, which applies it in the same step (a
  // manifest that fails leaves no realm); its description is the manifest's.
  const create = useMutation({
    mutationFn: (v: Values) =>
      api<ImportRealmResult>(manifest ? '/api/admin/realms/import' : '/api/admin/realms', {
        method: 'POST',
        body: {
          Slug: v.Slug,
          DisplayName: v.DisplayName,
          ...(manifest ? { Manifest: manifest.value } : { Description: v.Description || undefined }),
          Domains: parseDomains(v.Domains),
          InitialAdmin: v.inviteAdmin
            ? {
                UserName: v.InitialAdmin.UserName,
                Email: v.InitialAdmin.Email,
                Firstname: v.InitialAdmin.Firstname || undefined,
                Lastname: v.InitialAdmin.Lastname || undefined,
              }
            : undefined,
        },
      }),
    onSuccess: (result) => {
      setCreated(result);
      void queryClient.invalidateQueries({ queryKey: realmKeys.all });
    },
    onError: (e) =>
      report(e, {
        codeFields: {
          'Realm.SlugTaken': 'Slug',
          'Realm.SlugInvalid': 'Slug',
          'Realm.SlugReserved': 'Slug',
          'Realm.DomainTaken': 'Domains',
          'Realm.DomainInvalid': 'Domains',
        },
      }),
  });

  if (created) return <Created result={created} />;

  const errors = form.formState.errors;
  return (
    <form
      className="card"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        clear();
        if (manifestError) return;
        create.mutate(v);
      })}
    >
      <div className="card-body form">
        <ErrorSummary summary={summary} ref={summaryRef} />
        <div className="form-grid">
          <TextField label="Display name" registration={form.register('DisplayName')} error={errors.DisplayName?.message} autoFocus />
          <TextField
            label="Slug"
            hint="The realm’s permanent identifier. It cannot be changed later."
            registration={form.register('Slug')}
            error={errors.Slug?.message}
            spellCheck={false}
            autoCapitalize="none"
          />
        </div>
        <TextAreaField
          label="Domains"
          hint="Host names that select this realm, one per line. The first is its primary domain (e.g. acme.example.com)."
          registration={form.register('Domains')}
          error={errors.Domains?.message}
          rows={3}
          spellCheck={false}
          autoCapitalize="none"
        />
        {manifest ? null : (
          <TextAreaField label="Description" optional registration={form.register('Description')} error={errors.Description?.message} rows={2} />
        )}
        <div className="field">
          <label className="field-label" htmlFor={manifestId}>
            Start from a manifest <span className="field-optional">(optional)</span>
          </label>
          <input
            id={manifestId}
            type="file"
            className="input"
            accept=".json,application/json"
            aria-invalid={manifestError ? true : undefined}
            aria-describedby={`${manifestId}-hint${manifestError ? ` ${manifestId}-error` : ''}`}
            onChange={(e) => void readManifest(e.currentTarget.files?.[0])}
          />
          {manifestError ? (
            <p className="field-error" id={`${manifestId}-error`}>
              {manifestError}
            </p>
          ) : null}
          <p className="field-hint" id={`${manifestId}-hint`}>
            {manifest
              ? `The realm is made with the structure of ${manifest.fileName} (its description too), in one step: if the manifest is refused, no realm is made.`
              : 'A realm manifest (the export of another realm, for instance): its Apps, groups, roles, clients and settings are created with the realm.'}
          </p>
        </div>
        <fieldset className="fieldset">
          <legend>First administrator</legend>
          <CheckboxField
            label="Invite the first administrator now"
            hint="They receive a one-time link to choose a password. You can also invite one later."
            registration={form.register('inviteAdmin')}
          />
          {inviteAdmin ? (
            <div className="form-grid">
              <TextField
                label="User name"
                registration={form.register('InitialAdmin.UserName')}
                error={errors.InitialAdmin?.UserName?.message}
                autoCapitalize="none"
                spellCheck={false}
              />
              <TextField
                label="E-mail"
                type="email"
                registration={form.register('InitialAdmin.Email')}
                error={errors.InitialAdmin?.Email?.message}
                autoCapitalize="none"
                spellCheck={false}
              />
              <TextField label="First name" optional registration={form.register('InitialAdmin.Firstname')} error={errors.InitialAdmin?.Firstname?.message} />
              <TextField label="Last name" optional registration={form.register('InitialAdmin.Lastname')} error={errors.InitialAdmin?.Lastname?.message} />
            </div>
          ) : null}
        </fieldset>
      </div>
      <div className="card-footer form-actions">
        <Button type="submit" variant="primary" busy={create.isPending} busyLabel="Creating the realm…">
          Create realm
        </Button>
        <Link href="/console/realms" className={buttonClass('ghost')}>
          Cancel
        </Link>
      </div>
    </form>
  );
}

function Created({ result }: { result: ImportRealmResult }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const realm = result.Realm;
  return (
    <section className="card" aria-labelledby="created-heading">
      <div className="card-body stack">
        <h2 id="created-heading" ref={heading} tabIndex={-1}>
          Realm “{realm.DisplayName}” created
        </h2>
        <p className="muted">
          It answers on <strong>{realm.Domains.join(', ')}</strong>.
        </p>
        {result.Created ? <p data-testid="imported">Made from the manifest: {result.Created.length} items created.</p> : null}
        {result.ClientSecrets?.map((s) => (
          <SecretOnce key={s.ClientId} clientId={s.ClientId} secret={s.ClientSecret} title={`Copy the secret of the new client ${s.ClientId} now`} />
        ))}
        {result.InitialAdminInvite ? (
          <InviteResult invite={result.InitialAdminInvite} />
        ) : (
          <Alert title="No administrator yet">
            <p>Invite one from the realm’s page.</p>
          </Alert>
        )}
      </div>
      <div className="card-footer form-actions">
        <Link href={`/console/realms/${encodeURIComponent(realm.Slug)}`} className={buttonClass('primary')}>
          Open the realm
        </Link>
        <Link href="/console/realms" className={buttonClass()}>
          Back to realms
        </Link>
      </div>
    </section>
  );
}
