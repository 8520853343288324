import { redirect } from 'next/navigation';
import { currentSession } from '../../lib/auth';
import { SignOutButton } from '../auth-buttons';

export default async function SignedIn() {
  const session = await currentSession();
  if (!session?.user) redirect('/');
  return (
    <>
      <h1>Signed in</h1>
      <dl>
        <dt>Name</dt>
        <dd data-testid="user-name">{session.user.name ?? '—'}</dd>
        <dt>E-mail</dt>
        <dd data-testid="user-email">{session.user.email ?? '—'}</dd>
      </dl>
      <SignOutButton />
    </>
  );
}
