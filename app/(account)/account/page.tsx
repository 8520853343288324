import type { Metadata } from 'next';
import { SignOutButton } from '@/components/account/sign-out-button';
import { ConsoleShell } from '@/components/console/console-shell';
import { PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'My account' };

// Self-service (spec 4.2): who you are in this realm, and sign out. Profile changes go through
// change requests (spec 3.4) and arrive with the self-service issue.
export default async function AccountPage() {
  const user = await requirePageUser();
  const fullName = [user.Firstname, user.Lastname].filter(Boolean).join(' ');
  return (
    <ConsoleShell user={user}>
      <PageHeader title="My account" description={`Your profile in ${user.RealmDisplayName}.`} actions={<SignOutButton />} />
      <section className="card" aria-labelledby="profile-heading">
        <div className="card-header">
          <h2 id="profile-heading">Profile</h2>
        </div>
        <div className="card-body">
          <dl className="dl">
            <dt>User name</dt>
            <dd>{user.UserName}</dd>
            <dt>Name</dt>
            <dd>{fullName || <span className="muted">Not set</span>}</dd>
            <dt>E-mail</dt>
            <dd>
              <span className="row">
                {user.Email}
                {user.EmailConfirmed ? <span className="badge badge-success">Verified</span> : <span className="badge">Not verified</span>}
              </span>
            </dd>
            <dt>Realm</dt>
            <dd>
              {user.RealmDisplayName} <span className="muted">({user.Realm})</span>
            </dd>
          </dl>
        </div>
      </section>
      <section className="card" aria-labelledby="perm-heading">
        <div className="card-header">
          <h2 id="perm-heading">Your permissions</h2>
        </div>
        <div className="card-body stack">
          <div className="chips">
            {user.Permissions.length ? user.Permissions.map((p) => <span key={p} className="chip chip-static mono">{p}</span>) : <span className="muted">No administrative permissions.</span>}
          </div>
          {user.ControlPlanePermissions?.length ? (
            <>
              <h3>Platform</h3>
              <div className="chips">
                {user.ControlPlanePermissions.map((p) => (
                  <span key={p} className="chip chip-static mono">{p}</span>
                ))}
              </div>
            </>
          ) : null}
        </div>
      </section>
    </ConsoleShell>
  );
}
