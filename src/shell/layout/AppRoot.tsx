import { Outlet } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $bootstrapped } from '../session/model';
import { Notifications } from '../notifications/Notifications';
import { ErrorDialog } from '../error-dialog/ErrorDialog';
import { LABELS } from '../messages';
import { DocumentTitle } from './DocumentTitle';
import { SessionActivityWatcher } from './SessionActivityWatcher';

/**
 * The root route: no page renders before the console knows who the user is (spec 01 §4,
 * initial data before the first navigation); toasts, the error dialog, the document title
 * and the session watcher live here for every page.
 */
export function AppRoot() {
  const bootstrapped = useUnit($bootstrapped);
  return (
    <>
      <DocumentTitle />
      <SessionActivityWatcher />
      {bootstrapped ? <Outlet /> : <FullPageLoading />}
      <Notifications />
      <ErrorDialog />
    </>
  );
}

export function FullPageLoading() {
  return (
    <div className="full-page" role="status">
      {LABELS.loading}
    </div>
  );
}
