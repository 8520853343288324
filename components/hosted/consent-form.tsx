import { buttonClass } from '@/components/ui/button';
import type { ConsentRequest } from '@/lib/domain/oauth-consent/read-consent-request';
import { interactionPath } from '@/lib/oidc/routes';

/**
 * The question of the consent page: what the application may do, then Allow or Deny. One plain
 * form, no script: both buttons post to the engine's interaction (lib/oidc/interactions.ts), which
 * reads its own cookie and sends the browser back to the application either way. Allow comes first
 * in the form, so it is the submit button Enter would press and the first one a keyboard reaches.
 */
export function ConsentForm({ request }: { request: ConsentRequest }) {
  const base = interactionPath(request.uid);
  const app = request.client.displayName;
  return (
    <div className="stack">
      <section className="stack-sm" aria-labelledby="consent-permissions">
        <h2 id="consent-permissions" className="consent-heading">
          This will allow {app} to:
        </h2>
        <ul className="consent-list" role="list">
          {request.permissions.map((p) => (
            <li key={p.name}>
              <span className="consent-check" aria-hidden="true" />
              <span>
                <span className="consent-title">{p.title}</span>
                {p.description && p.description !== p.title ? <span className="muted small consent-description">{p.description}</span> : null}
              </span>
            </li>
          ))}
          {request.claims.length ? (
            <li>
              <span className="consent-check" aria-hidden="true" />
              <span>
                <span className="consent-title">See these details of your profile</span>
                <span className="muted small consent-description">{request.claims.join(', ')}</span>
              </span>
            </li>
          ) : null}
        </ul>
      </section>
      <form method="post" action={`${base}/confirm`} className="consent-actions">
        <button type="submit" className={buttonClass('primary', undefined, true)}>
          Allow
        </button>
        <button type="submit" formAction={`${base}/abort`} className={buttonClass('secondary', undefined, true)}>
          Deny
        </button>
      </form>
      <p className="muted small consent-note">Only allow applications you trust. Either way, you go back to {app}.</p>
    </div>
  );
}
