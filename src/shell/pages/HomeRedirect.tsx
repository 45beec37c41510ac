import { useEffect } from 'react';
import { Navigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $anonAccessEnabled, $currentUser } from '../session/model';
import { $offerPersonalization, $offerQuickSetup, homeOpened } from '../onboarding/model';
import { homePathFor } from '../access';
import { FullPageLoading } from '../layout/AppRoot';

/**
 * `/`: admins to the topology (or the quick setup while it is offered, once the console
 * knows), users and allowed anonymous visitors to packages, others to login.
 */
export function HomeRedirect() {
  const [user, anonAccessEnabled, offerQuickSetup, offerPersonalization] = useUnit([
    $currentUser,
    $anonAccessEnabled,
    $offerQuickSetup,
    $offerPersonalization,
  ]);
  const opened = useUnit(homeOpened);
  const waiting = user?.admin === true && !user.anonymous && offerQuickSetup === null;
  useEffect(() => {
    if (waiting) opened();
  }, [waiting, opened]);
  if (user?.admin && !user.anonymous && offerQuickSetup === null) return <FullPageLoading />;
  const to = homePathFor(user, anonAccessEnabled, offerQuickSetup === true, offerPersonalization);
  return <Navigate to={to} replace />;
}
