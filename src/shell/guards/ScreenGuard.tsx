import type { ReactNode } from 'react';
import type { Permission } from '../../api/descriptor';
import { RequireAccess } from './RequireAccess';
import { RequireProjectAdmin } from './RequireProjectAdmin';

/** The guard a screen's descriptor asks for: its permission, and where visitors go. */
export function ScreenGuard({
  permission,
  anonymousTo,
  children,
}: {
  permission: Permission;
  anonymousTo?: string;
  children: ReactNode;
}) {
  if (permission === 'projectAdmin') return <RequireProjectAdmin>{children}</RequireProjectAdmin>;
  return (
    <RequireAccess permission={permission} anonymousTo={anonymousTo}>
      {children}
    </RequireAccess>
  );
}
