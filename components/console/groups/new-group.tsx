'use client';
import { useRouter } from 'next/navigation';
import { GroupForm } from './group-form';

export function NewGroup() {
  const router = useRouter();
  return <GroupForm canWrite onSaved={(g) => router.push(`/console/groups/${encodeURIComponent(g.Id)}`)} />;
}
