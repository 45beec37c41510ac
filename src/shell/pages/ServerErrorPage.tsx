import { Navigate, useLocation } from 'react-router-dom';
import { ERROR_DIALOG } from '../messages';
import { SystemPage } from './SystemPage';

/**
 * /500. Entered directly (typed, bookmarked, reloaded) it goes to / (spec 01 §2): the
 * router's first location has the key "default", every in-app navigation gets a new key.
 */
export function ServerErrorPage() {
  const location = useLocation();
  if (location.key === 'default') return <Navigate to="/" replace />;
  return (
    <SystemPage title={ERROR_DIALOG.header}>
      <p>
        <strong>{ERROR_DIALOG.subheader}</strong>
      </p>
      <p>{ERROR_DIALOG.text}</p>
      <p>{ERROR_DIALOG.advice}</p>
    </SystemPage>
  );
}
