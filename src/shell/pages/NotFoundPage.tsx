import { NOT_FOUND_TEXT, PAGE_TITLES } from '../messages';
import { SystemPage } from './SystemPage';

export function NotFoundPage() {
  return (
    <SystemPage title={PAGE_TITLES.notFound}>
      <p>{NOT_FOUND_TEXT}</p>
    </SystemPage>
  );
}
