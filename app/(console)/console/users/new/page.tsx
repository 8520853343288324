import type { Metadata } from 'next';
import { can } from '@/components/console/permissions';
import { CreateUserForm } from '@/components/console/users/create-user-form';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { realmSettings } from '@/lib/domain/realm-settings/realm-settings';
import { pageContext, requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'New user' };

export default async function NewUserPage() {
  const user = await requirePageUser();
  if (!can(user, 'user:write')) return <NoAccess what="user creation" />;
  const settings = await realmSettings((await pageContext()).realm);
  return (
    <>
      <PageHeader back={{ href: '/console/users', label: 'Users' }} title="New user" />
      <CreateUserForm minLength={settings.PasswordPolicy.MinLength} />
    </>
  );
}
