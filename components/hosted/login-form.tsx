'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { emailRule, loginBodySchema } from '@/lib/domain/credential-rules';
import { api, ApiError, problemMessage } from '@/components/data/api';
import { useProblem } from '@/components/data/use-problem';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField, TextField } from '@/components/ui/field';
import { CodeForm } from './code-form';
import type { ExternalEntryPoint, ExternalNotice } from './external-entry';
import { ExternalNoticeAlert, ExternalSignInLinks } from './external-sign-in';
import { isEmailHint } from './login-hint';
import { stepAfter, type LoginOutcome, type LoginStep, type SignInMethods } from './login-outcome';
import { passkeyMessage, passkeySignIn } from './passkey';
import { SecureSetupGrace, SecureSetupStep } from './secure-setup-step';
import { TwoFactorStep } from './two-factor-step';

// The API's own rules and messages (lib/domain/credential-rules.ts).
const schema = loginBodySchema;
type Values = z.infer<typeof schema>;
const FIELDS = ['UserName', 'Password'] as const;

const emailSchema = z.object({ Email: emailRule });
type EmailValues = z.infer<typeof emailSchema>;
const EMAIL_FIELDS = ['Email'] as const;

export type LoginNotice = 'link-invalid' | ExternalNotice | null;

/**
 * Sign-in: the first step offers every method the realm enables (password, passkey, an e-mailed
 * code, an e-mailed link); then whatever the outcome asks for (second factor, secure set-up), then
 * on to `redirectTo` with a full navigation so the server renders it with the new session cookie.
 * `loginHint` (already checked by login-hint.ts) prefills the user name, and the e-mail address of
 * the mailed code and link when it is one. `external` are the realm's OIDC, SAML and Kerberos
 * providers, offered as links (external-sign-in.tsx).
 */
export function LoginForm({
  redirectTo,
  methods,
  external = [],
  initialStep = { kind: 'start' },
  notice = null,
  loginHint,
}: {
  redirectTo: string;
  methods: SignInMethods;
  external?: ExternalEntryPoint[];
  initialStep?: LoginStep;
  notice?: LoginNotice;
  loginHint?: string;
}) {
  const [step, setStep] = useState<LoginStep>(initialStep);
  const finish = () => {
    setStep({ kind: 'done' });
    window.location.assign(redirectTo);
  };
  const advance = (outcome: LoginOutcome) => {
    const next = stepAfter(outcome);
    if (next.kind === 'done') finish();
    else setStep(next);
  };
  const restart = () => setStep({ kind: 'start' });

  if (step.kind === 'two-factor') {
    return (
      <StepFrame title="Confirm it is you">
        <TwoFactorStep methods={step.methods} onOutcome={advance} onCancel={restart} />
      </StepFrame>
    );
  }
  if (step.kind === 'secure-setup-blocked') {
    return (
      <StepFrame title="Set up two-factor authentication">
        <SecureSetupStep onOutcome={advance} onCancel={restart} />
      </StepFrame>
    );
  }
  if (step.kind === 'secure-setup-grace') {
    return (
      <StepFrame title="You are signed in">
        <SecureSetupGrace dueAt={step.dueAt} redirectTo={redirectTo} />
      </StepFrame>
    );
  }
  return (
    <StartStep
      methods={methods}
      external={external}
      redirectTo={redirectTo}
      onOutcome={advance}
      done={step.kind === 'done'}
      notice={notice}
      loginHint={loginHint}
    />
  );
}

/** A later step is a section named by a (visually hidden) heading; its first control takes focus. */
function StepFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="stack" aria-labelledby="login-step-title">
      <h2 id="login-step-title" className="visually-hidden">
        {title}
      </h2>
      {children}
    </section>
  );
}

type Mode = 'choose' | 'email-code' | 'magic-link';

function StartStep({
  methods,
  external,
  redirectTo,
  onOutcome,
  done,
  notice,
  loginHint,
}: {
  methods: SignInMethods;
  external: ExternalEntryPoint[];
  redirectTo: string;
  onOutcome: (o: LoginOutcome) => void;
  done: boolean;
  notice: LoginNotice;
  loginHint?: string;
}) {
  const [mode, setMode] = useState<Mode>('choose');
  const [email, setEmail] = useState(isEmailHint(loginHint) ? loginHint : '');
  const passkey = useMutation({ mutationFn: passkeySignIn, onSuccess: onOutcome });
  const back = (typed?: string) => {
    if (typed !== undefined) setEmail(typed);
    setMode('choose');
  };
  const query = `?redirect=${encodeURIComponent(redirectTo)}`;

  if (mode === 'email-code') return <EmailCodeFlow initialEmail={email} onOutcome={onOutcome} onBack={back} />;
  if (mode === 'magic-link') return <MagicLinkFlow initialEmail={email} redirectTo={redirectTo} onBack={back} />;

  const others = methods.passkey || methods.emailCode || methods.magicLink;
  const alternatives = others || external.length > 0;
  const nothing = !methods.password && !alternatives;
  return (
    <div className="stack">
      {notice === 'link-invalid' ? (
        <Alert tone="warning" title="That sign-in link cannot be used">
          <p>It may have expired, been used already, or been replaced by a newer one. Sign in below or ask for a new link.</p>
        </Alert>
      ) : notice ? (
        <ExternalNoticeAlert notice={notice} />
      ) : null}
      {passkey.isError ? (
        <Alert tone="danger" title="Passkey sign-in did not work">
          <p>{passkeyMessage(passkey.error) ?? problemMessage(passkey.error)}</p>
        </Alert>
      ) : null}
      {methods.password ? <PasswordStep onOutcome={onOutcome} done={done} loginHint={loginHint} /> : null}
      {methods.password && alternatives ? (
        <div className="hosted-divider" role="separator">
          or
        </div>
      ) : null}
      {others ? (
        <div className="hosted-methods" role="group" aria-label={methods.password ? 'Other ways to sign in' : 'Ways to sign in'}>
          {methods.passkey ? (
            <Button
              variant={methods.password ? 'secondary' : 'primary'}
              block
              busy={passkey.isPending || passkey.isSuccess}
              busyLabel={passkey.isSuccess ? 'Signing you in…' : 'Waiting for your passkey…'}
              disabled={done}
              onClick={() => passkey.mutate()}
            >
              Use a passkey
            </Button>
          ) : null}
          {methods.emailCode ? (
            <Button variant="secondary" block disabled={done || passkey.isPending} onClick={() => setMode('email-code')}>
              E-mail me a code
            </Button>
          ) : null}
          {methods.magicLink ? (
            <Button variant="secondary" block disabled={done || passkey.isPending} onClick={() => setMode('magic-link')}>
              E-mail me a sign-in link
            </Button>
          ) : null}
        </div>
      ) : null}
      <ExternalSignInLinks entries={external} redirectTo={redirectTo} />
      {nothing ? (
        <Alert tone="warning" title="Sign-in is not available">
          <p>This site offers no way to sign in at the moment. Contact your administrator.</p>
        </Alert>
      ) : null}
      {methods.password || methods.register ? (
        <div className="hosted-links">
          {methods.password ? <Link href={`/forgot-password${query}`}>Forgot your password?</Link> : null}
          {methods.register ? (
            <span>
              New here? <Link href={`/register${query}`}>Create an account</Link>
            </span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

// method="post": a submit before hydration must never put the password into the URL. With a
// prefilled user name the caret starts in the password field, the one still to be typed.
function PasswordStep({ onOutcome, done, loginHint }: { onOutcome: (o: LoginOutcome) => void; done: boolean; loginHint?: string }) {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { UserName: loginHint ?? '', Password: '' } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, FIELDS);
  const login = useMutation({
    mutationFn: (values: Values) => api<LoginOutcome>('/api/account/login', { method: 'POST', body: values }),
    onSuccess: onOutcome,
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) {
        // The alert is announced (role=alert); focus goes where the person retypes.
        form.resetField('Password');
        report(error, { focusSummary: false });
        form.setFocus('Password');
        return;
      }
      report(error);
    },
  });
  const busy = login.isPending || done;
  const errors = form.formState.errors;

  return (
    <form
      className="form"
      method="post"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        clear();
        login.mutate(v);
      })}
      aria-describedby={summary ? 'login-error' : undefined}
    >
      <div id="login-error">
        <ErrorSummary summary={summary} ref={summaryRef} />
      </div>
      <TextField
        label="User name or e-mail"
        registration={form.register('UserName')}
        error={errors.UserName?.message}
        autoComplete="username webauthn"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus={!loginHint}
      />
      <PasswordField
        label="Password"
        registration={form.register('Password')}
        error={errors.Password?.message}
        autoComplete="current-password"
        autoFocus={Boolean(loginHint)}
      />
      <Button type="submit" variant="primary" block busy={busy} busyLabel={done ? 'Signing in…' : 'Checking…'}>
        Sign in
      </Button>
    </form>
  );
}

/** The e-mail address for a mailed code or link; keeps what was typed when going back. */
function EmailForm({
  initialEmail,
  intro,
  submitLabel,
  busyLabel,
  send,
  onSent,
  onBack,
}: {
  initialEmail: string;
  intro: string;
  submitLabel: string;
  busyLabel: string;
  send: (email: string) => Promise<unknown>;
  onSent: (email: string) => void;
  onBack: (typed: string) => void;
}) {
  const form = useForm<EmailValues>({ resolver: zodResolver(emailSchema), defaultValues: { Email: initialEmail } });
  const { summary, summaryRef, report, clear } = useProblem(form.setError, EMAIL_FIELDS);
  const request = useMutation({ mutationFn: (v: EmailValues) => send(v.Email.trim()), onSuccess: (_, v) => onSent(v.Email.trim()), onError: (e) => report(e) });
  return (
    <form
      className="form"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        clear();
        request.mutate(v);
      })}
    >
      <p className="muted">{intro}</p>
      <ErrorSummary summary={summary} ref={summaryRef} />
      <TextField
        label="E-mail address"
        type="email"
        registration={form.register('Email')}
        error={form.formState.errors.Email?.message}
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
      />
      <Button type="submit" variant="primary" block busy={request.isPending} busyLabel={busyLabel}>
        {submitLabel}
      </Button>
      <Button variant="ghost" block onClick={() => onBack(form.getValues('Email'))}>
        Back to all sign-in options
      </Button>
    </form>
  );
}

function EmailCodeFlow({ initialEmail, onOutcome, onBack }: { initialEmail: string; onOutcome: (o: LoginOutcome) => void; onBack: (typed?: string) => void }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const request = (Email: string) => api('/api/account/email-otp/login/request', { method: 'POST', body: { Email } });
  const resend = useMutation({ mutationFn: request });
  if (!sentTo) {
    return (
      <EmailForm
        initialEmail={initialEmail}
        intro="We will e-mail you a 6-digit code to sign in with."
        submitLabel="Send me a code"
        busyLabel="Sending…"
        send={request}
        onSent={setSentTo}
        onBack={onBack}
      />
    );
  }
  return (
    <CodeForm
      label="Code from the e-mail"
      hint={
        <>
          If <strong>{sentTo}</strong> has an account here, a 6-digit code is on its way. It works for 10 minutes.
        </>
      }
      invalidMessage="Enter the 6-digit code from the e-mail."
      submitLabel="Continue"
      busyLabel="Checking…"
      send={(Code) => api<LoginOutcome>('/api/account/email-otp/login', { method: 'POST', body: { Email: sentTo, Code } })}
      onOutcome={onOutcome}
    >
      <Button variant="ghost" block busy={resend.isPending} busyLabel="Sending…" onClick={() => resend.mutate(sentTo)}>
        Send a new code
      </Button>
      {resend.isSuccess ? (
        <p className="small muted" role="status">
          A new code is on its way; earlier codes no longer work.
        </p>
      ) : null}
      {resend.isError ? (
        <p className="field-error" role="alert">
          {problemMessage(resend.error)}
        </p>
      ) : null}
      <Button variant="ghost" block onClick={() => onBack(sentTo)}>
        Back to all sign-in options
      </Button>
    </CodeForm>
  );
}

function MagicLinkFlow({ initialEmail, redirectTo, onBack }: { initialEmail: string; redirectTo: string; onBack: (typed?: string) => void }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  if (!sentTo) {
    return (
      <EmailForm
        initialEmail={initialEmail}
        intro="We will e-mail you a link that signs you in. It works once, for 15 minutes."
        submitLabel="Send me a link"
        busyLabel="Sending…"
        send={(Email) => api('/api/account/magic-link/request', { method: 'POST', body: { Email, Redirect: redirectTo } })}
        onSent={setSentTo}
        onBack={onBack}
      />
    );
  }
  return (
    <div className="stack">
      <Alert tone="success" title="Check your mail">
        <p>
          If <strong>{sentTo}</strong> has an account here, a sign-in link is on its way. Open it on this device within 15 minutes.
        </p>
      </Alert>
      <Button variant="ghost" block onClick={() => onBack(sentTo)}>
        Back to all sign-in options
      </Button>
    </div>
  );
}
