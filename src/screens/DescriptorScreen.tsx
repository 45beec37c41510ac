import { lazy, Suspense, useMemo } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $screens, $screensStatus } from '../engine/descriptors/model';
import { resolveScreenView, screenRoutes, type ScreenRoute } from '../engine/screenPaths';
import { useScreenRegistry } from '../engine/screenRegistryContext';
import { ScreenGuard } from '../shell/guards/ScreenGuard';
import { RequireAccess } from '../shell/guards/RequireAccess';
import { FullPageLoading } from '../shell/layout/AppRoot';
import { ADMIN_AREA_PATH, NOT_FOUND_PATH } from '../shell/messages';
import { ServiceUnavailablePage } from '../shell/pages/ServiceUnavailablePage';
import { unavailableFeatureAt } from '../shell/unavailableServices';

/** The engine's pages load on demand: the login route never downloads rjsf or AG Grid. */
const ScreenPage = lazy(() => import('../engine/ScreenPage'));

/**
 * The route entry of every screen, bespoke or generic: the descriptors the server lists say
 * which paths exist, who may open them and what they show; a path of a companion service
 * Depot does not run says so; anything else is a 404, but for the admin area, which is for
 * admins whether or not a screen exists at the path.
 */
export function DescriptorScreen() {
  const [screens, status] = useUnit([$screens, $screensStatus]);
  const routes = useMemo(() => screenRoutes(screens), [screens]);
  if (status === 'idle' || status === 'loading') return <FullPageLoading />;
  return (
    <Routes>
      {routes.map((route, index) => (
        <Route
          key={`${index}:${route.path}`}
          path={route.path}
          element={<ScreenRouteElement route={route} />}
        />
      ))}
      <Route path="*" element={<UnknownPath />} />
    </Routes>
  );
}

function ScreenRouteElement({ route }: { route: ScreenRoute }) {
  const { screen, view } = route;
  return (
    <ScreenGuard permission={route.permission} anonymousTo={screen.anonymousTo}>
      <Suspense fallback={<FullPageLoading />}>
        {screen.component ? (
          // Keyed by page kind: moving between paths of one page (a tree's folders) keeps
          // its state, moving from an edit page to a new one starts afresh.
          <BespokeScreen key={`${screen.id}:${view}`} route={route} />
        ) : (
          <EngineScreen />
        )}
      </Suspense>
    </ScreenGuard>
  );
}

function BespokeScreen({ route }: { route: ScreenRoute }) {
  const Component = useScreenRegistry().get(route.screen.component ?? '');
  return <Component screen={route.screen} view={route.view} />;
}

function EngineScreen() {
  const { pathname } = useLocation();
  const screens = useUnit($screens);
  const view = resolveScreenView(pathname, screens);
  return view ? <ScreenPage view={view} /> : <Navigate to={NOT_FOUND_PATH} replace />;
}

function UnknownPath() {
  const { pathname } = useLocation();
  const unavailable = unavailableFeatureAt(pathname);
  const page = unavailable ? (
    <ServiceUnavailablePage feature={unavailable} />
  ) : (
    <Navigate to={NOT_FOUND_PATH} replace />
  );
  if (!pathname.startsWith(`${ADMIN_AREA_PATH}/`)) return page;
  return <RequireAccess permission="admin">{page}</RequireAccess>;
}
