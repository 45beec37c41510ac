import { attach, createEffect, createEvent, createStore, sample } from 'effector';
import { isServerFailure } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import { repositoriesApi, type RepoKind, type RepositoryListItem } from '../../api/repositories';
import { DEFAULT_ERROR_MESSAGE } from '../../engine/messages';
import { notificationShown } from '../../shell/notifications/model';
import { $contextProjectKey, projectSelected } from '../../shell/project/model';

export const listOpened = createEvent<RepoKind>();
export const deleteConfirmed = createEvent<RepositoryListItem>();

/** In a project's context (the toolbar's selector) the list is that project's repositories. */
export const fetchListFx = attach({
  source: $contextProjectKey,
  effect: (projectKey: string | null, kind: RepoKind) =>
    repositoriesApi.list(kind, projectKey ?? undefined),
});
export const deleteRepositoryFx = createEffect((row: RepositoryListItem) =>
  repositoriesApi.remove(row.repoType, row.repoKey),
);

/** The tab on screen; an answer for another tab that arrives late is dropped. */
export const $kind = createStore<RepoKind | null>(null).on(listOpened, (_, kind) => kind);
export const $rows = createStore<RepositoryListItem[]>([])
  .reset(listOpened)
  // Spec 03 §4: a deleted repository leaves the list once the server says it is gone.
  .on(deleteRepositoryFx.done, (rows, { params }) =>
    rows.filter((row) => row.repoKey !== params.repoKey),
  );
export const $loading = fetchListFx.pending;
export const $deleting = deleteRepositoryFx.pending;

// when a tab opens, or another project is chosen, fetch its repositories
sample({ clock: listOpened, target: fetchListFx });
sample({
  clock: projectSelected,
  source: $kind,
  filter: (kind): kind is RepoKind => kind !== null,
  target: fetchListFx,
});

// when rows arrive for the tab still open, show them
sample({
  clock: fetchListFx.done,
  source: $kind,
  filter: (kind, { params }) => kind === params,
  fn: (_, { result }) => result,
  target: $rows,
});

// when the admin confirms a delete, delete that repository
sample({ clock: deleteConfirmed, target: deleteRepositoryFx });

// when a repository is deleted, say what the server said
sample({
  clock: deleteRepositoryFx.doneData,
  fn: ({ info }) => ({ kind: 'success' as const, text: info }),
  target: notificationShown,
});

// when a list call fails, show the parsed message (server failures get the error dialog)
sample({
  clock: [fetchListFx.failData, deleteRepositoryFx.failData],
  filter: (error) => !isServerFailure(error),
  fn: (error) => ({ kind: 'error' as const, text: errorMessage(error, DEFAULT_ERROR_MESSAGE) }),
  target: notificationShown,
});
