'use client';
import { useRouter } from 'next/navigation';
import { RoleForm } from './role-form';

export function NewRole() {
  const router = useRouter();
  return <RoleForm canWrite onSaved={(r) => router.push(`/console/roles/${encodeURIComponent(r.Id)}`)} />;
}
