'use client';
import { useQuery } from '@tanstack/react-query';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { api, problemMessage, type ListPage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { oauthKeys, type ServiceAccount } from '../oauth-types';
import { positionKeys, type Position } from '../positions/types';

// What a new client can be besides a client (spec 4.7 "OAuth clients"): a position's terminal, and
// a service account's credential, linked to an existing account or to one made with it. Shown only
// to those allowed (position:write with the realm's positions on; service-account:write).

export type ClientIntentOptions = {
  /** Positions are on and the user may make terminals. */
  positions: boolean;
  /** The user may link or create service accounts. */
  serviceAccounts: boolean;
  /** The user may list service accounts (to link an existing one). */
  canReadServiceAccounts: boolean;
};

export const SERVICE_ACCOUNT_MODES = ['none', 'existing', 'new'] as const;

type Registrations = {
  position: UseFormRegisterReturn;
  mode: UseFormRegisterReturn;
  account: UseFormRegisterReturn;
  newName: UseFormRegisterReturn;
  newDescription: UseFormRegisterReturn;
};
type Errors = { PositionId?: string; ServiceAccountId?: string; NewServiceAccountName?: string; NewServiceAccountDescription?: string };

export function ClientIntentFields({
  options,
  register,
  mode,
  errors,
}: {
  options: ClientIntentOptions;
  register: Registrations;
  mode: (typeof SERVICE_ACCOUNT_MODES)[number];
  errors: Errors;
}) {
  const positions = useQuery({
    queryKey: positionKeys.list({ all: true }),
    queryFn: ({ signal }) => api<ListPage<Position>>('/api/position?pageSize=200&sortBy=name', { signal }),
    enabled: options.positions,
  });
  const accounts = useQuery({
    queryKey: oauthKeys.serviceAccountList({ all: true }),
    queryFn: ({ signal }) => api<ListPage<ServiceAccount>>('/api/service-account?pageSize=200&sortBy=name', { signal }),
    enabled: options.serviceAccounts && options.canReadServiceAccounts,
  });
  if (!options.positions && !options.serviceAccounts) return null;
  return (
    <fieldset className="fieldset stack-sm">
      <legend className="field-label">What the client is for</legend>
      <p className="muted small">A terminal or a service account’s client is Confidential and gets its tokens with client credentials.</p>
      {options.positions ? (
        <>
          {positions.isError ? (
            <Alert tone="danger" title="The positions could not be loaded.">
              {problemMessage(positions.error)}
            </Alert>
          ) : null}
          {/* Rendered once the positions are there, so a preset position is selected when the field registers. */}
          {positions.data ? (
            <SelectField
              label="Terminal of position"
              optional
              hint="Its tokens say where it acts (the claim position_id)."
              registration={register.position}
              error={errors.PositionId}
            >
              <option value="">Not a terminal</option>
              {positions.data.items
                .filter((p) => p.IsActive)
                .map((p) => (
                  <option key={p.Id} value={p.Id}>
                    {p.Name}
                  </option>
                ))}
            </SelectField>
          ) : positions.isPending ? (
            <p className="muted small">Loading the positions…</p>
          ) : null}
        </>
      ) : null}
      {options.serviceAccounts ? (
        <>
          <SelectField
            label="Service account"
            hint="Whoever holds the client’s secret acts with the account’s permissions; you must hold them too."
            registration={register.mode}
          >
            <option value="none">None</option>
            {options.canReadServiceAccounts ? <option value="existing">An existing service account</option> : null}
            <option value="new">A new service account</option>
          </SelectField>
          {mode === 'existing' ? (
            <SelectField label="Existing service account" registration={register.account} error={errors.ServiceAccountId}>
              <option value="">Choose…</option>
              {(accounts.data?.items ?? []).map((a) => (
                <option key={a.Id} value={a.Id}>
                  {a.Name}
                </option>
              ))}
            </SelectField>
          ) : null}
          {mode === 'new' ? (
            <>
              <TextField label="New service account name" registration={register.newName} error={errors.NewServiceAccountName} />
              <TextAreaField
                label="New service account description"
                optional
                registration={register.newDescription}
                error={errors.NewServiceAccountDescription}
                rows={2}
              />
            </>
          ) : null}
        </>
      ) : null}
    </fieldset>
  );
}
