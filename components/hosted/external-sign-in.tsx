import { Alert } from '@/components/ui/alert';
import { buttonClass } from '@/components/ui/button';
import { EXTERNAL_NOTICE_TEXT, externalEntryHref, type ExternalEntryPoint, type ExternalNotice } from './external-entry';

/**
 * One link per external provider (spec 4.5). Plain links, not buttons: the browser navigates to the
 * upstream with a full page load (and works before hydration), carrying the continuation the
 * sign-in page validated, so the OAuth sign-in bridge (`/connect/authorize…`) resumes afterwards.
 */
export function ExternalSignInLinks({ entries, redirectTo }: { entries: ExternalEntryPoint[]; redirectTo: string }) {
  const links = entries.flatMap((e) => {
    const href = externalEntryHref(e, redirectTo);
    return href ? [{ ...e, href }] : [];
  });
  if (links.length === 0) return null;
  const kerberosCount = links.filter((e) => e.Kind === 'Kerberos').length;
  return (
    <div className="hosted-methods" role="group" aria-label="Sign in with your organisation">
      {links.map((e) => (
        <a key={e.Id} href={e.href} className={buttonClass('secondary', undefined, true)}>
          {e.Kind !== 'Kerberos' ? `Continue with ${e.Name}` : kerberosCount > 1 ? `Sign in with Kerberos (${e.Name})` : 'Sign in with Kerberos'}
        </a>
      ))}
    </div>
  );
}

/** The notice of a failed external sign-in: fixed words, the reason is in the security log. */
export function ExternalNoticeAlert({ notice }: { notice: ExternalNotice }) {
  const text = EXTERNAL_NOTICE_TEXT[notice];
  return (
    <Alert tone={notice === 'external-unavailable' ? 'warning' : 'danger'} title={text.title}>
      <p>{text.body}</p>
    </Alert>
  );
}
