import { useRouteError } from 'react-router-dom';
import { ERROR_DIALOG } from '../messages';
import { ErrorContent } from '../error-dialog/ErrorContent';
import { SystemPage } from './SystemPage';

/** A page that threw while rendering (an unknown widget name, say): the generic error text. */
export function RouteErrorPage() {
  const error = useRouteError();
  const summary = error instanceof Error ? error.message : String(error);
  return (
    <SystemPage title={ERROR_DIALOG.header}>
      <p>
        <strong>{ERROR_DIALOG.subheader}</strong>
      </p>
      <ErrorContent details={{ summary, time: new Date().toISOString() }} />
    </SystemPage>
  );
}
