import { Navigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $anonAccessEnabled, $currentUser } from '../session/model';
import { homePathFor } from '../access';

/** `/`: admins to the admin area, users (and allowed anonymous visitors) home, others to login. */
export function HomeRedirect() {
  const [user, anonAccessEnabled] = useUnit([$currentUser, $anonAccessEnabled]);
  return <Navigate to={homePathFor(user, anonAccessEnabled)} replace />;
}
