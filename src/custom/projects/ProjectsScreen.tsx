import { lazy } from 'react';
import type { ScreenComponentProps } from '../../engine/registry';

const ProjectsListPage = lazy(() => import('./ProjectsListPage'));
const ProjectCreatePage = lazy(() => import('./ProjectCreatePage'));

/** Administration > Projects (spec 03 §3): the list, and the form at create. */
export default function ProjectsScreen({ view }: ScreenComponentProps) {
  return view === 'new' ? <ProjectCreatePage /> : <ProjectsListPage />;
}
