import { attach, combine, createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import {
  projectsApi,
  type MemberKind,
  type Project,
  type ProjectMember,
  type ProjectRole,
  type ProjectStorage,
} from '../../api/projects';
import { navigateFx } from '../../shell/navigation/model';
import { notificationShown } from '../../shell/notifications/model';
import {
  $contextProjectKey,
  DEFAULT_PROJECT_KEY,
  projectSelected,
  projectsChanged,
} from '../../shell/project/model';
import { PROJECT_LABELS as L, PROJECT_PATHS } from './messages';

/* ---------- the list and create (admins) ---------- */

export const listOpened = createEvent();
export const createOpened = createEvent();
export const createSubmitted = createEvent<Partial<Project>>();
export const deleteConfirmed = createEvent<Project>();

export const fetchAllFx = createEffect(projectsApi.list);
export const fetchLimitFx = createEffect(projectsApi.limit);
export const createFx = createEffect(projectsApi.create);
export const deleteFx = createEffect((project: Project) => projectsApi.remove(project.project_key));

export const $allProjects = createStore<Project[]>([]).on(fetchAllFx.doneData, (_, all) => all);
export const $listLoaded = createStore(false)
  .on(fetchAllFx.finally, () => true)
  .reset(listOpened);
export const $limit = createStore<{ limit: number; count: number } | null>(null).on(
  fetchLimitFx.doneData,
  (_, limit) => limit,
);
export const $createError = createStore<string | null>(null)
  .on(createFx.failData, (_, error) => errorMessage(error, L.createFailed))
  .reset(createOpened, createSubmitted);
export const $creating = createFx.pending;

// when the list or the create page opens, read the projects and the limit
sample({ clock: [listOpened, deleteFx.done], target: fetchAllFx });
sample({ clock: [listOpened, createOpened], target: fetchLimitFx });
sample({ clock: createSubmitted, target: createFx });
sample({ clock: deleteConfirmed, target: deleteFx });

// when a project is made, say so, select it and open its overview
sample({
  clock: createFx.doneData,
  fn: (project) => ({ kind: 'success' as const, text: L.created(project.display_name) }),
  target: notificationShown,
});
sample({ clock: createFx.doneData, fn: (project) => project.project_key, target: projectSelected });
sample({ clock: createFx.done, fn: () => ({ to: PROJECT_PATHS.overview }), target: navigateFx });
sample({ clock: [createFx.done, deleteFx.done], target: projectsChanged });
sample({
  clock: deleteFx.done,
  fn: ({ params }) => ({ kind: 'success' as const, text: L.deleted(params.display_name) }),
  target: notificationShown,
});
// when the selected project is deleted, go back to All and to the list
sample({
  clock: deleteFx.done,
  source: $contextProjectKey,
  filter: (selected, { params }) => selected === params.project_key,
  fn: () => DEFAULT_PROJECT_KEY,
  target: projectSelected,
});
sample({ clock: deleteFx.done, fn: () => ({ to: PROJECT_PATHS.list }), target: navigateFx });

/* ---------- one project's settings (admins and its project admins) ---------- */

export const settingsOpened = createEvent();
export const settingsClosed = createEvent();
/** Whether one of the project's settings pages is showing (they read the project's data). */
const $settingsShown = createStore(false)
  .on(settingsOpened, () => true)
  .on(settingsClosed, () => false);
export const overviewSaved = createEvent<Partial<Project>>();
export const memberSaved = createEvent<{ kind: MemberKind; name: string; roles: string[] }>();
export const memberRemoved = createEvent<{ kind: MemberKind; name: string }>();
export const roleCreated = createEvent<Partial<ProjectRole>>();
export const roleRemoved = createEvent<string>();

/** Each call acts on the project selected at the time it is made. */
const inProject = <P, R>(handler: (key: string, params: P) => Promise<R>) =>
  attach({
    source: $contextProjectKey,
    effect: (key: string | null, params: P) => {
      if (!key) throw new Error(L.selectProject);
      return handler(key, params);
    },
  });

export const fetchProjectFx = inProject((key) => projectsApi.get(key));
export const fetchMembersFx = inProject(async (key) => ({
  users: await projectsApi.members(key, 'users'),
  groups: await projectsApi.members(key, 'groups'),
}));
export const fetchRolesFx = inProject((key) => projectsApi.roles(key));
export const fetchStorageFx = inProject((key) => projectsApi.storage(key));
export const updateFx = inProject((key, change: Partial<Project>) =>
  projectsApi.update(key, change),
);
export const putMemberFx = inProject(
  (key, { kind, name, roles }: { kind: MemberKind; name: string; roles: string[] }) =>
    projectsApi.putMember(key, kind, name, roles),
);
export const removeMemberFx = inProject((key, { kind, name }: { kind: MemberKind; name: string }) =>
  projectsApi.removeMember(key, kind, name),
);
export const createRoleFx = inProject((key, role: Partial<ProjectRole>) =>
  projectsApi.createRole(key, role),
);
export const removeRoleFx = inProject((key, name: string) => projectsApi.removeRole(key, name));

export const $project = createStore<Project | null>(null)
  .on([fetchProjectFx.doneData, updateFx.doneData], (_, project) => project)
  .reset(projectSelected);
export const $members = createStore<{ users: ProjectMember[]; groups: ProjectMember[] }>({
  users: [],
  groups: [],
})
  .on(fetchMembersFx.doneData, (_, members) => members)
  .reset(projectSelected);
export const $roles = createStore<ProjectRole[]>([])
  .on(fetchRolesFx.doneData, (_, roles) => roles)
  .reset(projectSelected);
export const $storage = createStore<ProjectStorage | null>(null)
  .on(fetchStorageFx.doneData, (_, storage) => storage)
  .reset(projectSelected);
/**
 * Reading the project or saving it: the overview form stays locked meanwhile, since each
 * answer becomes the form again (an edit typed while a read or a save is in flight would be
 * lost). A settings page reads the project each time it opens, after a shown one too.
 */
export const $overviewBusy = combine(
  fetchProjectFx.pending,
  updateFx.pending,
  (reading, saving) => reading || saving,
);
/** The last refusal of a settings form, shown beside it. */
export const $settingsError = createStore<string | null>(null)
  .on([updateFx.failData, putMemberFx.failData, createRoleFx.failData], (_, error) =>
    errorMessage(error),
  )
  .reset(settingsOpened, overviewSaved, memberSaved, roleCreated, projectSelected);

// when a settings page opens, or the project changes while one shows, read what it shows
// (another page's project switch reads nothing of the settings)
sample({
  clock: settingsOpened,
  source: $contextProjectKey,
  filter: Boolean,
  target: [fetchProjectFx, fetchMembersFx, fetchRolesFx, fetchStorageFx],
});
sample({
  clock: projectSelected,
  source: { key: $contextProjectKey, shown: $settingsShown },
  filter: ({ key, shown }) => shown && key !== null,
  fn: ({ key }) => key!,
  target: [fetchProjectFx, fetchMembersFx, fetchRolesFx, fetchStorageFx],
});
sample({ clock: overviewSaved, target: updateFx });
sample({ clock: memberSaved, target: putMemberFx });
sample({ clock: memberRemoved, target: removeMemberFx });
sample({ clock: roleCreated, target: createRoleFx });
sample({ clock: roleRemoved, target: removeRoleFx });

// when members or roles change, read them again (a deleted role leaves its members)
sample({
  clock: [putMemberFx.done, removeMemberFx.done, removeRoleFx.done],
  target: fetchMembersFx,
});
sample({ clock: [createRoleFx.done, removeRoleFx.done], target: fetchRolesFx });
sample({ clock: updateFx.done, target: projectsChanged });

// when something is saved, say so; when a call fails without a form to show it, say why
sample({
  clock: updateFx.doneData,
  fn: (project) => ({ kind: 'success' as const, text: L.updated(project.display_name) }),
  target: notificationShown,
});
sample({
  clock: putMemberFx.done,
  fn: ({ params }) => ({ kind: 'success' as const, text: L.memberSaved(params.name) }),
  target: notificationShown,
});
sample({
  clock: removeMemberFx.done,
  fn: ({ params }) => ({ kind: 'success' as const, text: L.memberRemoved(params.name) }),
  target: notificationShown,
});
sample({
  clock: createRoleFx.doneData,
  fn: (role) => ({ kind: 'success' as const, text: L.roleCreated(role.name) }),
  target: notificationShown,
});
sample({
  clock: removeRoleFx.done,
  fn: ({ params }) => ({ kind: 'success' as const, text: L.roleRemoved(params) }),
  target: notificationShown,
});
sample({
  clock: [
    fetchAllFx.failData,
    deleteFx.failData,
    removeMemberFx.failData,
    removeRoleFx.failData,
    fetchProjectFx.failData,
  ],
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error) }),
  target: notificationShown,
});
