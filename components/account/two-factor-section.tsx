'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, problemMessage } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyField } from '@/components/ui/copy-button';
import { TextField } from '@/components/ui/field';
import { QueryState } from '@/components/ui/query-state';
import { accountKeys, type MfaSetup, type MfaStatus } from './account-types';
import { AccountSection } from './section';

const schema = z.object({
  Code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'),
});
type Values = z.infer<typeof schema>;
const FIELDS = ['Code'] as const;

/** The server's SVG as an image: never injected into the DOM, so it cannot run script. */
function svgDataUrl(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return `data:image/svg+xml;base64,${btoa(bin)}`;
}

/** A 6-digit code form used to confirm enrolment and to turn 2FA off. */
function CodeForm({
  label,
  submitLabel,
  busyLabel,
  variant,
  onSubmit,
  busy,
}: {
  label: string;
  submitLabel: string;
  busyLabel: string;
  variant: 'primary' | 'danger';
  onSubmit: (v: Values, report: (e: unknown) => void) => void;
  busy: boolean;
}) {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { Code: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  return (
    <form
      className="form"
      noValidate
      aria-label={label}
      onSubmit={form.handleSubmit((v) => {
        clear();
        onSubmit(v, (e) => {
          form.resetField('Code');
          report(e, { codeFields: { 'Mfa.InvalidCode': 'Code', 'Mfa.CodeReplayed': 'Code' } });
        });
      })}
    >
      <ErrorSummary summary={summary} ref={summaryRef} />
      <TextField
        label="Verification code"
        registration={form.register('Code')}
        error={form.formState.errors.Code?.message}
        inputMode="numeric"
        autoComplete="one-time-code"
        spellCheck={false}
      />
      <div className="form-actions">
        <Button type="submit" variant={variant} busy={busy} busyLabel={busyLabel}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** Authenticator-app two-factor (spec 4.3): status, enrolment with QR code or key, and turning it off. */
export function TwoFactorSection({ required }: { required?: boolean }) {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: accountKeys.mfa, queryFn: ({ signal }) => api<MfaStatus>('/api/account/mfa/status', { signal }) });
  const [setup, setSetup] = useState<MfaSetup | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [disabling, setDisabling] = useState(false);
  const start = useMutation({
    mutationFn: () => api<MfaSetup>('/api/account/mfa/setup', { method: 'POST', body: {} }),
    onSuccess: (s) => {
      setNotice(null);
      setSetup(s);
    },
  });
  const verify = useMutation({ mutationFn: (v: Values) => api('/api/account/mfa/verify', { method: 'POST', body: v }) });
  const disable = useMutation({ mutationFn: (v: Values) => api('/api/account/mfa/disable', { method: 'POST', body: v }) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.mfa });
  const enabled = status.data?.enabled;
  return (
    <AccountSection
      id="two-factor"
      title="Two-factor authentication"
      description="A code from an authenticator app (such as 1Password, Google Authenticator or Aegis) after your password."
      actions={status.data ? enabled ? <span className="badge badge-success">On</span> : <span className="badge">Off</span> : null}
    >
      {notice ? <Alert tone="success" title={notice} /> : null}
      {required ? <Alert tone="info" title="This realm requires two-factor authentication." /> : null}
      <QueryState isPending={status.isPending} error={status.error} onRetry={() => status.refetch()}>
        {enabled ? (
          disabling ? (
            <div className="stack-sm">
              <p>Enter a current code from your authenticator app to turn two-factor authentication off.</p>
              <CodeForm
                label="Turn off two-factor authentication"
                submitLabel="Turn off"
                busyLabel="Turning off…"
                variant="danger"
                busy={disable.isPending}
                onSubmit={(v, report) =>
                  disable.mutate(v, {
                    onSuccess: () => {
                      setDisabling(false);
                      setNotice('Two-factor authentication is off.');
                      void refresh();
                    },
                    onError: (e) => report(e),
                  })
                }
              />
              <div>
                <Button variant="ghost" onClick={() => setDisabling(false)}>
                  Keep it on
                </Button>
              </div>
            </div>
          ) : (
            <div className="stack-sm">
              <p>Two-factor authentication is on. Signing in asks for a code from your authenticator app.</p>
              <div>
                <Button
                  variant="danger"
                  onClick={() => {
                    setNotice(null);
                    setDisabling(true);
                  }}
                >
                  Turn off two-factor authentication
                </Button>
              </div>
            </div>
          )
        ) : setup ? (
          <div className="account-enrol">
            <img className="account-qr" src={svgDataUrl(setup.QrCodeSvg)} alt="QR code to scan with your authenticator app" width={200} height={200} />
            <div className="stack">
              <ol className="stack-sm">
                <li>Scan the QR code with your authenticator app, or enter the key below by hand.</li>
                <li>Enter the 6-digit code the app shows.</li>
              </ol>
              <CopyField label="Setup key" value={setup.SharedKey} />
              <CodeForm
                label="Confirm two-factor authentication"
                submitLabel="Turn on"
                busyLabel="Verifying…"
                variant="primary"
                busy={verify.isPending}
                onSubmit={(v, report) =>
                  verify.mutate(v, {
                    onSuccess: () => {
                      setSetup(null);
                      setNotice('Two-factor authentication is on.');
                      void refresh();
                    },
                    onError: (e) => report(e),
                  })
                }
              />
              <div>
                <Button variant="ghost" onClick={() => setSetup(null)}>
                  Cancel setup
                </Button>
              </div>
            </div>
          </div>
        ) : (
          <div className="stack-sm">
            <p>Two-factor authentication is off.</p>
            <div className="row">
              <Button variant="primary" busy={start.isPending} busyLabel="Preparing…" onClick={() => start.mutate()}>
                Set up an authenticator app
              </Button>
              {start.isError ? (
                <span role="alert" className="field-error">
                  {problemMessage(start.error)}
                </span>
              ) : null}
            </div>
          </div>
        )}
      </QueryState>
    </AccountSection>
  );
}
