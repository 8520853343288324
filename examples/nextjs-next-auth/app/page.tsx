import { redirect } from 'next/navigation';
import { currentSession } from '../lib/auth';
import { SignInButton } from './auth-buttons';

type Props = { searchParams: Promise<{ error?: string | string[] }> };

export default async function Home({ searchParams }: Props) {
  // Someone already signed in goes straight on to their page.
  if (await currentSession()) redirect('/signed-in');
  // next-auth comes back here (pages.signIn) with ?error=<code> when a sign-in fails; the details
  // are in the server's log.
  const { error } = await searchParams;
  return (
    <>
      <h1>Sample app</h1>
      <p>This application has no accounts of its own: it signs you in with Gatehouse.</p>
      {error ? <p role="alert">The sign-in did not succeed ({String(error)}). Please try again.</p> : null}
      <SignInButton />
    </>
  );
}
