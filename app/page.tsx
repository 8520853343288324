import { redirect } from 'next/navigation';
import { hasConsoleAccess } from '@/components/console/permissions';
import { pageUser } from '@/lib/http/page-context';

// `/`: the console for an administrator, the account area for anyone else signed in, else sign-in.
export default async function Home() {
  const user = await pageUser();
  redirect(user ? (hasConsoleAccess(user) ? '/console' : '/account') : '/login');
}
