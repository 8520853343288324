import Link from 'next/link';

export default function ConsoleNotFound() {
  return (
    <div className="card">
      <div className="card-body stack-sm">
        <h1>Not found</h1>
        <p className="muted">There is nothing at this address in this realm’s console.</p>
        <p>
          <Link href="/console">Back to the overview</Link>
        </p>
      </div>
    </div>
  );
}
