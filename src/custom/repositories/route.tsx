import { lazy, Suspense } from 'react';
import { Navigate, useParams, type RouteObject } from 'react-router-dom';
import { REPO_KINDS, type RepoKind } from '../../api/repositories';
import { DescriptorScreen } from '../../screens/DescriptorScreen';
import { FullPageLoading } from '../../shell/layout/AppRoot';
import { NOT_FOUND_PATH } from '../../shell/messages';
import { REPO_LABELS } from './messages';

/** AG Grid and the form load only when an admin opens the repositories. */
const RepositoriesListPage = lazy(() => import('./RepositoriesListPage'));
const RepositoryFormPage = lazy(() => import('./RepositoryFormPage'));

const kindOf = (value: string | undefined): RepoKind | undefined =>
  REPO_KINDS.find((kind) => kind === value);

/** The list of a kind, or its form: an unknown kind is a 404. */
function RepositoriesRoute({ page }: { page: 'list' | 'form' }) {
  const { repoType, repoKey } = useParams();
  const kind = kindOf(repoType);
  if (!kind) return <Navigate to={NOT_FOUND_PATH} replace />;
  return (
    <Suspense fallback={<FullPageLoading />}>
      {page === 'list' ? (
        <RepositoriesListPage kind={kind} />
      ) : (
        // A new key remounts: one repository's form never shows another's state.
        <RepositoryFormPage key={`${kind}:${repoKey ?? ''}`} kind={kind} repoKey={repoKey} />
      )}
    </Suspense>
  );
}

const handle = { title: REPO_LABELS.title };

/**
 * The repository layouts (list, new, {layoutname}/edit), relative to `admin`: a descriptor
 * screen, for admins. Static paths rank above `:repoType/...` ("layouts" is no kind).
 */
export const repositoryLayoutRoutes: RouteObject[] = [
  'layouts',
  'layouts/new',
  'layouts/:layoutName/edit',
].map((path) => ({
  path: `repositories/${path}`,
  element: <DescriptorScreen />,
  handle: { title: REPO_LABELS.layouts },
}));

/**
 * The routes of spec 03 §2 Repositories, relative to `admin`: the list by kind, new, edit.
 * Admins, and project admins in their project's context (spec 01 §6 manage-repos).
 */
export const repositoriesRoutes: RouteObject[] = [
  { path: 'repositories', element: <Navigate to="local" replace /> },
  { path: 'repositories/:repoType', element: <RepositoriesRoute page="list" />, handle },
  { path: 'repositories/:repoType/new', element: <RepositoriesRoute page="form" />, handle },
  {
    path: 'repositories/:repoType/:repoKey/edit',
    element: <RepositoriesRoute page="form" />,
    handle,
  },
];
