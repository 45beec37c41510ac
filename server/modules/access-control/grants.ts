import { compileAntPattern } from '../artifacts/ant-pattern.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import { isSupportBundlesKey } from '../support-bundles/bundle-repository.ts';
import type { RepositoryConfig } from '../repositories/service.ts';
import type { AccessDecider, NodeKind, RepoAction } from './decider.ts';
import {
  ANY,
  ANY_LOCAL,
  ANY_REMOTE,
  CACHE_SUFFIX,
  withImpliedActions,
  type PermissionSection,
  type PermissionTarget,
} from './permission-target.ts';

/** Who is asking, as permission targets name principals. */
export interface Grantee {
  name: string;
  groups: readonly string[];
}

/** One target's repository section, as it applies to one principal. */
interface Grant {
  /** Lowercased repository keys the grant names, and the class markers it holds. */
  keys: Set<string>;
  markers: Set<string>;
  includes: RegExp[];
  /** The include patterns' fixed beginnings, to tell which folders lead to something granted. */
  includePrefixes: string[];
  excludes: RegExp[];
  actions: Set<RepoAction>;
}

const V2_TO_REPO_ACTION: Record<string, RepoAction | undefined> = {
  read: 'read',
  annotate: 'annotate',
  write: 'deploy',
  delete: 'delete',
  manage: 'manage',
};

/** What a principal holds in a section: its own actions and its groups', with implications. */
function actionsOf(section: PermissionSection, grantee: Grantee): Set<RepoAction> {
  const given = [
    ...(section.actions.users[grantee.name] ?? []),
    ...grantee.groups.flatMap((group) => section.actions.groups[group] ?? []),
  ];
  if (given.length === 0) return new Set();
  const implied = withImpliedActions('repo', given);
  return new Set(implied.flatMap((action) => V2_TO_REPO_ACTION[action] ?? []));
}

/** The part of a pattern before its first wildcard: 'org/acme/**' gives 'org/acme/'. */
const fixedPrefix = (pattern: string) => pattern.split(/[*?]/, 1)[0]!;

function toGrant(section: PermissionSection, actions: Set<RepoAction>): Grant {
  const includes = section['include-patterns'].filter(Boolean);
  const patterns = includes.length > 0 ? includes : ['**'];
  return {
    keys: new Set(section.repositories.map((key) => key.toLowerCase())),
    markers: new Set(section.repositories.filter((key) => key.startsWith('ANY'))),
    includes: patterns.map(compileAntPattern),
    includePrefixes: patterns.map(fixedPrefix),
    excludes: section['exclude-patterns'].filter(Boolean).map(compileAntPattern),
    actions,
  };
}

/**
 * Whether a target's repository section reaches a node: the repository named (or a class of
 * it) and the path inside the patterns. For the Effective Permissions tab, which asks it of
 * every principal the section names.
 */
export function sectionReaches(
  section: PermissionSection,
  repo: Pick<RepositoryConfig, 'key' | 'rclass'>,
  path: string,
  kind: NodeKind,
): boolean {
  const grant = toGrant(section, new Set());
  return coversRepository(grant, repo) && coversPath(grant, path, kind);
}

/** The actions a section grants a user directly or through groups, or a group, implied ones included. */
export const sectionActions = actionsOf;

/** The grants of every target's repository section that names the principal. */
export function grantsFor(targets: readonly PermissionTarget[], grantee: Grantee): Grant[] {
  return targets.flatMap((target) => {
    if (!target.repo) return [];
    const actions = actionsOf(target.repo, grantee);
    return actions.size > 0 ? [toGrant(target.repo, actions)] : [];
  });
}

function coversRepository(grant: Grant, repo: Pick<RepositoryConfig, 'key' | 'rclass'>): boolean {
  if (repo.rclass === 'virtual') return false; // targets name real storage, never a view of it
  const key = repo.key.toLowerCase();
  // What was deleted anywhere lands in the trash can: only a target naming it reaches it.
  if (key === TRASH_REPO_KEY) return grant.keys.has(key);
  // Support bundles hold every node's logs: only a target naming their repository reaches it.
  if (isSupportBundlesKey(key)) return grant.keys.has(key);
  if (grant.markers.has(ANY)) return true;
  if (repo.rclass === 'local' && grant.markers.has(ANY_LOCAL)) return true;
  if (repo.rclass === 'remote' && grant.markers.has(ANY_REMOTE)) return true;
  return grant.keys.has(key) || (repo.rclass === 'remote' && grant.keys.has(key + CACHE_SUFFIX));
}

/**
 * Whether a path is inside a grant. A folder on the way to granted content counts too (one
 * can open `org` to reach `org/acme/**`), so that trees and listings lead to what is readable.
 */
function coversPath(grant: Grant, path: string, kind: NodeKind): boolean {
  if (grant.excludes.some((pattern) => pattern.test(path))) return false;
  if (grant.includes.some((pattern) => pattern.test(path))) return true;
  if (kind === 'file') return false;
  if (path === '') return true;
  const folder = `${path}/`;
  return grant.includePrefixes.some(
    (prefix) => prefix.startsWith(folder) || (folder.startsWith(prefix) && prefix !== ''),
  );
}

/**
 * The decider for a principal that is not an administrator: an action is allowed where one
 * of its grants covers the repository and the path. A virtual repository allows what one of
 * its members allows, since reading through it reads from them.
 */
export function deciderFromGrants(
  grants: readonly Grant[],
  repositories: readonly Pick<RepositoryConfig, 'key' | 'rclass' | 'repositories'>[],
): AccessDecider {
  const byKey = new Map(repositories.map((repo) => [repo.key.toLowerCase(), repo]));
  const grantsOf = new Map<string, Grant[]>();
  for (const repo of repositories) {
    const covering = grants.filter((grant) => coversRepository(grant, repo));
    if (covering.length > 0) grantsOf.set(repo.key.toLowerCase(), covering);
  }

  /** `{remote}-cache` addresses a remote repository's cache: judged as the remote itself. */
  function cacheOwner(key: string): string {
    if (byKey.has(key) || !key.endsWith(CACHE_SUFFIX)) return key;
    const owner = key.slice(0, -CACHE_SUFFIX.length);
    return byKey.get(owner)?.rclass === 'remote' ? owner : key;
  }

  function can(
    action: RepoAction,
    repoKey: string,
    path: string,
    kind: NodeKind = 'file',
  ): boolean {
    const key = cacheOwner(repoKey.toLowerCase());
    const repo = byKey.get(key);
    if (repo?.rclass === 'virtual') {
      return (repo.repositories ?? []).some((member) => can(action, member, path, kind));
    }
    return (grantsOf.get(key) ?? []).some(
      (grant) => grant.actions.has(action) && coversPath(grant, path, kind),
    );
  }

  const readable = new Set(
    repositories.filter((repo) => can('read', repo.key, '', 'folder')).map((repo) => repo.key),
  );
  const everything = readable.size === repositories.length;
  return {
    admin: false,
    can,
    readableRepoKeys: () => (everything ? 'all' : readable),
    // Copies land in local repositories only; a remote's Deploy/Cache does not count.
    deploysSomewhere: repositories.some(
      (repo) =>
        repo.rclass === 'local' &&
        (grantsOf.get(repo.key.toLowerCase()) ?? []).some((grant) => grant.actions.has('deploy')),
    ),
  };
}
