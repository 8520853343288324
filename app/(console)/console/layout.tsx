import type { ReactNode } from 'react';
import { redirect } from 'next/navigation';
import { ConsoleShell } from '@/app/_shell/console-shell';
import { hasConsoleAccess } from '@/components/console/permissions';
import { positionTerminalsEnabled } from '@/lib/domain/positions/feature';
import { pageContext, requirePageUser } from '@/lib/http/page-context';

// The console is for people who administer something; anyone else signed in belongs in their
// account area, whatever console address they open.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser();
  if (!hasConsoleAccess(user)) redirect('/account');
  const Features = { PositionTerminals: await positionTerminalsEnabled((await pageContext()).realm) };
  return (
    <ConsoleShell user={{ ...user, Features }} live>
      {children}
    </ConsoleShell>
  );
}
