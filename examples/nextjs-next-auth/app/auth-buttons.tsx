'use client';

import { useEffect, useState } from 'react';
import { signIn, signOut } from 'next-auth/react';

// next-auth's sign-in and sign-out are POSTs with a CSRF token, which its client helpers fetch
// and send; they need a client component.

/** False in the server-rendered HTML, true once React has attached the click handlers. */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

// Until then the buttons are disabled: a click on the bare HTML would do nothing at all.

export function SignInButton() {
  const hydrated = useHydrated();
  return (
    <button disabled={!hydrated} onClick={() => signIn('gatehouse', { callbackUrl: '/signed-in' })}>
      Sign in with Gatehouse
    </button>
  );
}

export function SignOutButton() {
  const hydrated = useHydrated();
  return (
    <button disabled={!hydrated} onClick={() => signOut({ callbackUrl: '/' })}>
      Sign out
    </button>
  );
}
