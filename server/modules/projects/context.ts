import type { RepositoryConfig } from '../repositories/service.ts';

/** Spec 01 §3: the default project context, "All": no narrowing. */
export const DEFAULT_CONTEXT_KEY = 'default';

/**
 * Whether a repository shows in a project's context (the console's project selector): the
 * project's own repositories and the ones shared with it. No key, or the default context's,
 * shows every repository. This narrows a view; what a caller may read is still the access
 * decider's to say.
 */
export function inProjectContext(
  projectKey: string | undefined,
): (repo: Pick<RepositoryConfig, 'projectKey' | 'sharedWithProjects'>) => boolean {
  if (!projectKey || projectKey === DEFAULT_CONTEXT_KEY) return () => true;
  return (repo) =>
    repo.projectKey === projectKey ||
    (repo.sharedWithProjects ?? []).some((shared) => shared === projectKey || shared === '*');
}
