import { Navigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $anonAccessEnabled, $currentUser } from '../session/model';
import { $offerQuickSetup } from '../onboarding/model';
import { homePathFor } from '../access';
import { FullPageLoading } from '../layout/AppRoot';

/**
 * `/`: admins to the topology (or the quick setup while it is offered, once the console
 * knows), users and allowed anonymous visitors to packages, others to login.
 */
export function HomeRedirect() {
  const [user, anonAccessEnabled, offerQuickSetup] = useUnit([
    $currentUser,
    $anonAccessEnabled,
    $offerQuickSetup,
  ]);
  if (user?.admin && !user.anonymous && offerQuickSetup === null) return <FullPageLoading />;
  return <Navigate to={homePathFor(user, anonAccessEnabled, offerQuickSetup === true)} replace />;
}
