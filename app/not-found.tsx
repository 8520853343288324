import Link from 'next/link';
import { buttonClass } from '@/components/ui/button';

export default function NotFound() {
  return (
    <main className="hosted" id="main">
      <div className="card hosted-card">
        <div className="card-body stack">
          <h1>Page not found</h1>
          <p className="muted">The address may be mistyped, or the page no longer exists.</p>
          <Link href="/" className={buttonClass('primary', undefined, true)}>
            Go to the start page
          </Link>
        </div>
      </div>
    </main>
  );
}
