import type { Metadata } from 'next';
import Link from 'next/link';
import { visibleNav } from '@/components/console/permissions';
import { REALM_ADMIN } from '@/lib/authz/catalog';
import { PageHeader } from '@/components/ui/page-header';
import { positionTerminalsEnabled } from '@/lib/domain/positions/feature';
import { pageContext, requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Console' };

export default async function ConsoleHome() {
  const user = await requirePageUser();
  const { realm } = await pageContext();
  const items = visibleNav({ ...user, Features: { PositionTerminals: await positionTerminalsEnabled(realm) } });
  const name = user.Firstname || user.UserName;
  return (
    <>
      <PageHeader
        title={`Welcome, ${name}`}
        description={realm.isControlPlane ? 'You are on the control plane: realms are managed here.' : `Administration of ${realm.displayName}.`}
      />
      {items.length ? (
        <section aria-labelledby="sections-heading" className="stack-sm">
          <h2 id="sections-heading" className="visually-hidden">
            Sections
          </h2>
          <div className="tiles">
            {items.map((item) => (
              <Link key={item.href} href={item.href} className="card tile">
                <span className="tile-title">{item.label}</span>
                <span className="muted small">{item.description}</span>
              </Link>
            ))}
          </div>
        </section>
      ) : (
        <div className="card">
          <div className="card-body stack-sm">
            <h2>Nothing to administer</h2>
            <p className="muted">
              Your account has no administrative permissions in this realm. You can still manage <Link href="/account">your own account</Link>.
            </p>
          </div>
        </div>
      )}
      <section className="card" aria-labelledby="realm-heading">
        <div className="card-header">
          <h2 id="realm-heading">This realm</h2>
        </div>
        <div className="card-body">
          <dl className="dl">
            <dt>Name</dt>
            <dd>{realm.displayName}</dd>
            <dt>Slug</dt>
            <dd>
              <code>{realm.slug}</code>
            </dd>
            <dt>Primary domain</dt>
            <dd>{realm.primaryDomain}</dd>
            <dt>Your access</dt>
            <dd>
              {user.Permissions.includes(REALM_ADMIN) ? (
                <span className="row">
                  <span className="chip chip-static mono">realm:admin</span>
                  <span className="muted small">Full administration of this realm</span>
                </span>
              ) : (
                <div className="chips">
                  {user.Permissions.length ? (
                    user.Permissions.map((p) => (
                      <span key={p} className="chip chip-static mono">
                        {p}
                      </span>
                    ))
                  ) : (
                    <span className="muted">No administrative permissions</span>
                  )}
                </div>
              )}
            </dd>
          </dl>
        </div>
      </section>
    </>
  );
}
