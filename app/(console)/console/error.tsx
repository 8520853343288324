'use client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

// An unexpected failure while rendering a console page: say so plainly and offer a retry.
export default function ConsoleError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <Alert tone="danger" title="This page could not be shown.">
      <p>Something went wrong on our side. Try again; if it keeps happening, tell your administrator.</p>
      <p>
        <Button size="sm" onClick={reset}>
          Try again
        </Button>
      </p>
    </Alert>
  );
}
