import { lazy } from 'react';
import { Navigate, useLocation, useParams } from 'react-router-dom';
import { REPO_KINDS, type RepoKind } from '../../api/repositories';
import type { ScreenComponentProps } from '../../engine/registry';
import { NOT_FOUND_PATH } from '../../shell/messages';
import { ServiceUnavailablePage } from '../../shell/pages/ServiceUnavailablePage';
import { unavailableFeatureAt } from '../../shell/unavailableServices';
import { listPath } from './messages';

/** AG Grid and the form load only when an admin opens the repositories. */
const RepositoriesListPage = lazy(() => import('./RepositoriesListPage'));
const RepositoryFormPage = lazy(() => import('./RepositoryFormPage'));

const kindOf = (value: string | undefined): RepoKind | undefined =>
  REPO_KINDS.find((kind) => kind === value);

/**
 * The repositories screen (spec 03 §2): the list of a kind, its new form, a repository's
 * edit form. The kind comes from `:repoType`, or is the last segment of the screen's own
 * route (`/admin/repositories/local`); `/admin/repositories` goes to the local list; a kind
 * of the spec's that needs a service Depot does not run (federated, distribution) says so;
 * any other kind is a 404.
 */
export default function RepositoriesScreen({ view }: ScreenComponentProps) {
  const { repoType, repoKey } = useParams();
  const { pathname } = useLocation();
  if (repoType === undefined && pathname.replace(/\/$/, '').endsWith('/repositories'))
    return <Navigate to={listPath('local')} replace />;
  const kind = kindOf(repoType ?? pathname.split('/').at(-1));
  if (!kind) {
    const unavailable = unavailableFeatureAt(pathname);
    if (unavailable) return <ServiceUnavailablePage feature={unavailable} />;
    return <Navigate to={NOT_FOUND_PATH} replace />;
  }
  if (view === 'list') return <RepositoriesListPage kind={kind} />;
  // A new key remounts: one repository's form never shows another's state.
  return <RepositoryFormPage key={`${kind}:${repoKey ?? ''}`} kind={kind} repoKey={repoKey} />;
}
