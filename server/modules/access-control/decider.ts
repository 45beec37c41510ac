/**
 * Spec 01 §3 permission actions on repositories, in the order in which granting one implies
 * the ones before it (Read, Annotate, Deploy/Cache, Delete/Overwrite, Manage).
 */
export const REPO_ACTIONS = ['read', 'annotate', 'deploy', 'delete', 'manage'] as const;
export type RepoAction = (typeof REPO_ACTIONS)[number];

/**
 * A folder is allowed when it leads to something allowed (opening `org` to reach
 * `org/acme/**`); a file only when a pattern covers it.
 */
export type NodeKind = 'file' | 'folder';

/**
 * What one caller may do with artifacts, decided once per request from the permission model
 * and then asked synchronously for every row: search, listings and tree children filter with
 * it before they page, so nobody gets fewer rows than asked while more exist.
 */
export interface AccessDecider {
  /** Administrators may do everything everywhere. */
  readonly admin: boolean;
  /** Whether the caller may do `action` on `path` (no leading slash; '' is the repository). */
  can(action: RepoAction, repoKey: string, path: string, kind?: NodeKind): boolean;
  /**
   * The repositories in which the caller may read at least something, for a query to narrow
   * to before checking rows one by one; 'all' when no repository is out of reach.
   */
  readableRepoKeys(): ReadonlySet<string> | 'all';
  /** Whether the caller may deploy to some local repository (the tree offers Copy only then). */
  readonly deploysSomewhere: boolean;
}

/** Everything everywhere: administrators. */
export const ADMIN_ACCESS: AccessDecider = {
  admin: true,
  can: () => true,
  readableRepoKeys: () => 'all',
  deploysSomewhere: true,
};

/** Nothing anywhere: an anonymous caller when anonymous access is off. */
export const NO_ACCESS: AccessDecider = {
  admin: false,
  can: () => false,
  readableRepoKeys: () => new Set(),
  deploysSomewhere: false,
};
