import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { MAIL_CONFIG_PATH, MAIL_LABELS } from './messages';

const MailConfigPage = lazy(() => import('./MailConfigPage'));

/** The admin route configuration/mail, relative to `admin`. */
export const mailConfigRoute: RouteObject = {
  path: MAIL_CONFIG_PATH.replace('/admin/', ''),
  element: (
    <Suspense fallback={<FullPageLoading />}>
      <MailConfigPage />
    </Suspense>
  ),
  handle: { title: MAIL_LABELS.title },
};
