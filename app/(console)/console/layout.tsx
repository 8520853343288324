import type { ReactNode } from 'react';
import { ConsoleShell } from '@/app/_shell/console-shell';
import { requirePageUser } from '@/lib/http/page-context';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser();
  return <ConsoleShell user={user}>{children}</ConsoleShell>;
}
