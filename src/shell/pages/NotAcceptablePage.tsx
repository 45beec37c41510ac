import { useParams } from 'react-router-dom';
import { PAGE_TITLES } from '../messages';
import { SystemPage } from './SystemPage';

/** /406/{requestId}: the server refused the request; the id lets an admin find it in the logs. */
export function NotAcceptablePage() {
  const { requestId } = useParams();
  return (
    <SystemPage title={PAGE_TITLES.notAcceptable}>
      <p>
        Request ID: <code>{requestId}</code>
      </p>
    </SystemPage>
  );
}
