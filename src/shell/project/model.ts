import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { projectsApi, type Project } from '../../api/projects';
import { isAnonymous } from '../access';
import { $currentUser } from '../session/model';

/** Spec 01 §3 Project context: the default context's key, shown as "All". */
export const DEFAULT_PROJECT_KEY = 'default';
const STORAGE_KEY = 'depot.projectKey';

function storedProjectKey(): string {
  try {
    return localStorage.getItem(STORAGE_KEY) ?? DEFAULT_PROJECT_KEY;
  } catch {
    return DEFAULT_PROJECT_KEY;
  }
}

export const projectSelected = createEvent<string>();
/** Something changed the list (a project created, renamed or deleted): read it again. */
export const projectsChanged = createEvent();

export const fetchProjectsFx = createEffect(projectsApi.list);

/** Every project for an admin; the ones a project admin administers otherwise. */
export const $projects = createStore<Project[]>([])
  .on(fetchProjectsFx.doneData, (_, projects) => projects)
  .on(fetchProjectsFx.fail, () => []);
export const $projectsLoaded = createStore(false)
  .on(fetchProjectsFx.finally, () => true)
  .on($currentUser, (loaded, user) => (isAnonymous(user) ? false : loaded));

export const $selectedProjectKey = createStore(storedProjectKey()).on(
  projectSelected,
  (_, key) => key,
);
/** The selected project, when it is one this user can see (a stale choice falls back to All). */
export const $selectedProject = combine(
  $projects,
  $selectedProjectKey,
  (projects, key) => projects.find((project) => project.project_key === key) ?? null,
);
/** The project key the console's calls carry; null in the default context. */
export const $contextProjectKey = $selectedProject.map((project) => project?.project_key ?? null);

/** Spec 01 §6: projects supported and the user an admin or a project admin. */
export const $canAdministerProjects = combine(
  $currentUser,
  $projects,
  (user, projects) => user?.admin === true || projects.length > 0,
);
/** Spec 01 §2: Project Settings replaces Administration when one project is selected. */
export const $projectSettingsMode = $selectedProject.map((project) => project !== null);

// the projects a signed-in user may choose from, read when they sign in and after changes
sample({
  clock: [$currentUser, projectsChanged],
  source: $currentUser,
  filter: (user) => !isAnonymous(user),
  target: fetchProjectsFx,
});

// remember the choice across reloads
$selectedProjectKey.watch((key) => {
  try {
    localStorage.setItem(STORAGE_KEY, key);
  } catch {
    // private mode: the choice lasts this visit only
  }
});
