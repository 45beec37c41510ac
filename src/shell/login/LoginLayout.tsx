import { useState } from 'react';
import { Navigate, Outlet, useSearchParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $anonAccessEnabled, $currentUser, $isAnonymous } from '../session/model';
import { homePathFor } from '../access';
import { LABELS } from '../messages';
import './login.css';

/**
 * /login and /auth. A user already signed in when arriving goes home (spec 01 §4), unless
 * the logout flag is set: then the login page logs them out first.
 */
export function LoginLayout() {
  const [user, anonymous, anonAccessEnabled] = useUnit([
    $currentUser,
    $isAnonymous,
    $anonAccessEnabled,
  ]);
  const [params] = useSearchParams();
  // Decided once, on arrival: signing in (or out) on these pages navigates on its own, and
  // the layout stays mounted from /login to /login/change-password/{userName}.
  const [homeOnArrival] = useState(() =>
    !anonymous && params.get('logout') !== 'true' ? homePathFor(user, anonAccessEnabled) : null,
  );
  if (homeOnArrival) return <Navigate to={homeOnArrival} replace />;
  return (
    <div className="login-page">
      <main className="login-card card">
        <p className="login-brand">{LABELS.productName}</p>
        <Outlet />
      </main>
    </div>
  );
}
