import type { ReactNode } from 'react';
import { ConsoleShell } from '@/app/_shell/console-shell';
import { positionTerminalsEnabled } from '@/lib/domain/positions/feature';
import { pageContext, requirePageUser } from '@/lib/http/page-context';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser();
  const Features = { PositionTerminals: await positionTerminalsEnabled((await pageContext()).realm) };
  return <ConsoleShell user={{ ...user, Features }}>{children}</ConsoleShell>;
}
