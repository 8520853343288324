import type { Metadata } from 'next';
import { ConsentForm } from '@/components/hosted/consent-form';
import { HostedShell } from '@/app/_shell/hosted-shell';
import { param, type SearchParams } from '@/components/hosted/page-params';
import { Alert } from '@/components/ui/alert';
import { readConsentRequest } from '@/lib/domain/oauth-consent/read-consent-request';
import { pageContext, pageUser } from '@/lib/http/page-context';

// `same-origin`, not the sign-in pages' `no-referrer`: under no-referrer Chromium sends the form's
// POST with `Origin: null`, which the interaction endpoint's same-origin check refuses; same-origin
// still keeps the uid in this page's URL from every other origin.
export const metadata: Metadata = { title: 'Allow access', referrer: 'same-origin', robots: { index: false } };

// The consent page of the OAuth engine (issue 4.2): clients whose ConsentType is Explicit send the
// browser here as `/consent?uid={interaction}` once the person is signed in. Shown only to that
// person; anyone else (another account, no session, an old or answered request) gets the same
// "start again" message, so a uid reveals nothing. Not in proxy.ts's matcher on purpose: its CSP
// has `form-action 'self'`, and Chromium applies that to the redirects after the post too, which
// end at the client's redirect URI on another origin (server.ts still sends X-Frame-Options DENY).
export default async function ConsentPage({ searchParams }: { searchParams: SearchParams }) {
  const uid = param((await searchParams).uid);
  const ctx = await pageContext();
  const user = await pageUser();
  const request = user && uid ? await readConsentRequest(ctx, uid) : null;

  if (!user || !request) {
    return (
      <HostedShell title="This request has expired">
        <Alert tone="warning" title="Nothing to approve here">
          <p>The sign-in request has expired, was already answered, or belongs to another account. Start again from the application you were signing in to.</p>
        </Alert>
      </HostedShell>
    );
  }

  const name = [user.Firstname, user.Lastname].filter(Boolean).join(' ') || user.UserName;
  return (
    <HostedShell
      title={`Allow ${request.client.displayName}?`}
      subtitle={
        <>
          <strong>{request.client.displayName}</strong> wants to use your {ctx.realm.displayName} account.
        </>
      }
    >
      <div className="stack">
        <p className="consent-account small">
          Signed in as <strong>{name}</strong>
          {name !== user.UserName ? <span className="muted"> ({user.UserName})</span> : null}
        </p>
        {request.client.publishedBy ? (
          <p className="muted small consent-publisher">
            This application describes itself; its details are published by <strong>{request.client.publishedBy}</strong>.
          </p>
        ) : null}
        <ConsentForm request={request} />
      </div>
    </HostedShell>
  );
}
