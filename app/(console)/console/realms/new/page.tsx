import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { can } from '@/components/console/permissions';
import { CreateRealmForm } from '@/components/console/realms/create-realm-form';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'New realm' };

export default async function NewRealmPage() {
  const user = await requirePageUser();
  if (!user.IsControlPlane) notFound();
  if (!can(user, 'realm:write', 'control-plane')) return <NoAccess what="realm creation" />;
  return (
    <>
      <PageHeader
        back={{ href: '/console/realms', label: 'Realms' }}
        title="New realm"
        description="A realm gets its own database, the built-in application, default scopes and an Administrators group."
      />
      <CreateRealmForm />
    </>
  );
}
