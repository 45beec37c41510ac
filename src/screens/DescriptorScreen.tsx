import { lazy, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $screens, $screensStatus } from '../engine/descriptors/model';
import { resolveScreenView } from '../engine/screenPaths';
import { RequireAccess } from '../shell/guards/RequireAccess';
import { FullPageLoading } from '../shell/layout/AppRoot';
import { NOT_FOUND_PATH } from '../shell/messages';

/** The engine's pages load on demand: the login route never downloads rjsf or AG Grid. */
const ScreenPage = lazy(() => import('../engine/ScreenPage'));

/**
 * The route entry of every descriptor screen: the server's descriptors say which paths
 * exist (list at `route`, `route/new`, `route/{key}/edit`); anything else is a 404.
 */
export function DescriptorScreen() {
  const { pathname } = useLocation();
  const [screens, status] = useUnit([$screens, $screensStatus]);
  if (status === 'idle' || status === 'loading') return <FullPageLoading />;
  const view = resolveScreenView(pathname, screens);
  if (!view) return <Navigate to={NOT_FOUND_PATH} replace />;
  return (
    <RequireAccess permission={view.screen.permission}>
      <Suspense fallback={<FullPageLoading />}>
        <ScreenPage view={view} />
      </Suspense>
    </RequireAccess>
  );
}
