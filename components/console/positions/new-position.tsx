'use client';
import { useRouter } from 'next/navigation';
import { PositionForm } from './position-form';

export function NewPosition() {
  const router = useRouter();
  return <PositionForm canWrite onSaved={(p) => router.push(`/console/positions/${encodeURIComponent(p.Id)}`)} />;
}
