import { NOT_AUTHORIZED_MESSAGE, PAGE_TITLES } from '../messages';
import { SystemPage } from './SystemPage';

/** /authorization, the spec's system page for a page the user may not see (spec 01 §2). */
export function NotAuthorizedPage() {
  return (
    <SystemPage title={PAGE_TITLES.notAuthorized}>
      <p>{NOT_AUTHORIZED_MESSAGE}</p>
    </SystemPage>
  );
}
