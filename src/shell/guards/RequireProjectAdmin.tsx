import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $currentUser } from '../session/model';
import { $projectsLoaded, $selectedProject } from '../project/model';
import { homePathFor, isAnonymous } from '../access';
import { LOGIN_PATH } from '../messages';
import type { ReturnState } from '../navigation/model';
import { FullPageLoading } from '../layout/AppRoot';
import { NotAuthorized } from './RequireAccess';

/**
 * Spec 01 §6: routes for an admin, or a project admin with one of their projects selected
 * (project settings, the project's repositories). Others are told they are not authorized
 * and sent home; the server checks every call again.
 */
export function RequireProjectAdmin({ children }: { children: ReactNode }) {
  const [user, loaded, project] = useUnit([$currentUser, $projectsLoaded, $selectedProject]);
  const location = useLocation();
  if (user?.admin) return children;
  if (isAnonymous(user)) {
    const state: ReturnState = { from: location.pathname + location.search };
    return <Navigate to={LOGIN_PATH} replace state={state} />;
  }
  if (!loaded) return <FullPageLoading />;
  if (project) return children;
  return <NotAuthorized home={homePathFor(user, false)} />;
}
