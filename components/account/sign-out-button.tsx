'use client';
import { useMutation } from '@tanstack/react-query';
import { api, problemMessage } from '@/components/data/api';
import { Button } from '@/components/ui/button';

/** Ends the browser session (spec 4.1 logout) and shows the signed-out page. */
export function SignOutButton({ variant = 'secondary', size }: { variant?: 'secondary' | 'ghost' | 'primary'; size?: 'sm' }) {
  const logout = useMutation({
    mutationFn: () => api('/api/account/logout', { method: 'POST', body: {} }),
    onSuccess: () => window.location.assign('/logged-out'),
  });
  return (
    <>
      <Button variant={variant} size={size} busy={logout.isPending || logout.isSuccess} busyLabel="Signing out…" onClick={() => logout.mutate()}>
        Sign out
      </Button>
      {logout.isError ? (
        <span role="alert" className="field-error">
          {problemMessage(logout.error)}
        </span>
      ) : null}
    </>
  );
}
