import { createReadCache } from '../../cache/read-cache.ts';
import type { Database } from '../../db/database.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import type { SecurityConfigService } from '../security-config/service.ts';
import {
  ADMIN_ACCESS,
  NO_ACCESS,
  type AccessDecider,
  type NodeKind,
  type RepoAction,
} from './decider.ts';
import { deciderFromGrants, grantsFor } from './grants.ts';
import {
  ADMIN_BUILDS,
  NO_BUILDS,
  buildDeciderFrom,
  projectBuildTargets,
  type BuildDecider,
} from './build-decider.ts';
import { projectMembershipsOf } from '../projects/queries.ts';
import { projectTargets } from '../projects/project-targets.ts';
import { ACCESS_MESSAGES as M } from './messages.ts';
import { ALL_SECTIONS, type PermissionTarget } from './permission-target.ts';
import {
  deletePermissionTarget,
  groupNamesOf,
  insertPermissionTarget,
  listPermissionTargets,
  permissionTargetsNaming,
  replacePermissionTarget,
} from './queries.ts';
import { checkTarget, type TargetChecks } from './validation.ts';
import { targetNameError } from './target-name.ts';
import { manages, type Grantee } from './managers.ts';
import { denied } from './refusals.ts';
import { createItemWalker, type ItemWalker } from './subtree-walk.ts';

export { denied };

const ANONYMOUS_USER = 'anonymous';

/** A new target's name must fit in its URL (target-name.ts): 400 on the name field if not. */
function refuseIllegalName(name: string): void {
  const error = targetNameError(name);
  if (error) throw new BadRequest(error, 'name');
}

/** `denied`, knowing from the decider whether the caller may at least read the node. */
function refusal(
  access: AccessDecider,
  principal: Principal,
  action: RepoAction,
  repoKey: string,
  path: string,
  kind: NodeKind,
) {
  return denied(principal, action, repoKey, path, access.can('read', repoKey, path, kind));
}

/**
 * The one place that decides who may do what with artifacts (docs/access-control.md): the
 * permission targets, and the deciders built from them. Routes, search, listings and the
 * tree ask `forPrincipal(request.principal)` once per request and then `can(...)` per node.
 * Targets, repositories and group memberships are read once and kept until they change
 * (on any cluster node: the tables notify, migration 0008 and 0012).
 */
export function createAccessService(deps: {
  db: Database;
  changes: TableChanges;
  securityConfig: SecurityConfigService;
  repositories: RepositoriesService;
  checks: TargetChecks;
  /** Whether a path of a repository is a folder (the root is): folders are judged as such. */
  isFolder: (repoKey: string, path: string) => Promise<boolean>;
}) {
  const { db, changes } = deps;
  const targets = createReadCache<'all', PermissionTarget[]>({ ttlMs: 60_000, maxEntries: 1 });
  const repositories = createReadCache<'all', Awaited<ReturnType<RepositoriesService['list']>>>({
    ttlMs: 60_000,
    maxEntries: 1,
  });
  const memberships = createReadCache<number, string[]>({ ttlMs: 60_000, maxEntries: 10_000 });
  // Principals with the same name and groups decide alike: build each decider once.
  const deciders = createReadCache<string, AccessDecider>({ ttlMs: 60_000, maxEntries: 10_000 });
  // And their build deciders: a builds list or an item's Builds tab asks on every call.
  const buildDeciders = createReadCache<string, BuildDecider>({
    ttlMs: 60_000,
    maxEntries: 10_000,
  });
  const clearDeciders = () => {
    deciders.clear();
    buildDeciders.clear();
  };
  const clearAll = () => {
    targets.clear();
    repositories.clear();
    clearDeciders();
  };
  changes.onChange(
    ['permission_targets', 'repositories', 'projects', 'project_members', 'project_roles'],
    clearAll,
  );
  changes.onChange(['users', 'groups', 'user_groups'], () => {
    memberships.clear();
    clearDeciders();
  });

  const allTargets = () => targets.get('all', () => listPermissionTargets(db));

  /** A group-scoped token has its groups' permissions only, none granted to a user by name. */
  const grantedName = (principal: Principal) =>
    principal.groups ? '' : principal.anonymous ? ANONYMOUS_USER : principal.name;
  const deciderKey = (name: string, groups: readonly string[]) =>
    `${name}\u0000${groups.join('\u0000')}`;

  /**
   * Who a principal is to the targets: its granted name, and its groups (a group-scoped
   * token brings its own; a user has its memberships).
   */
  async function grantee(principal: Principal): Promise<Grantee> {
    const groups =
      principal.groups ??
      (principal.userId === undefined
        ? []
        : await memberships.get(principal.userId, () => groupNamesOf(db, principal.userId!)));
    return { name: grantedName(principal), groups };
  }

  async function forPrincipal(principal: Principal): Promise<AccessDecider> {
    if (principal.admin) return ADMIN_ACCESS;
    if (principal.anonymous) {
      const { anonAccessEnabled } = await deps.securityConfig.get();
      if (!anonAccessEnabled) return NO_ACCESS;
    }
    const { name, groups } = await grantee(principal);
    return deciders.get(deciderKey(name, groups), async () => {
      // Only the targets naming this user or its groups: there may be tens of thousands.
      const [naming, memberships, repos] = await Promise.all([
        permissionTargetsNaming(db, name, groups),
        projectMembershipsOf(db, name, groups),
        repositories.get('all', () => deps.repositories.list()),
      ]);
      // Project roles count like targets over the project's repositories (docs/projects.md).
      const targets = [...naming, ...projectTargets(memberships, repos)];
      return deciderFromGrants(grantsFor(targets, { name, groups }), repos);
    });
  }

  /** What a caller may do with builds (build-decider.ts); asked once per request. */
  async function forBuilds(principal: Principal): Promise<BuildDecider> {
    if (principal.admin) return ADMIN_BUILDS;
    if (principal.anonymous && !(await deps.securityConfig.get()).anonAccessEnabled)
      return NO_BUILDS;
    const who = await grantee(principal);
    return buildDeciders.get(deciderKey(who.name, who.groups), async () => {
      const [naming, memberships, repos] = await Promise.all([
        permissionTargetsNaming(db, who.name, who.groups),
        projectMembershipsOf(db, who.name, who.groups),
        repositories.get('all', () => deps.repositories.list()),
      ]);
      const projects = projectBuildTargets(projectTargets(memberships, repos));
      return buildDeciderFrom([...naming, ...projects], who);
    });
  }

  /**
   * The decider `forPrincipal` would answer from memory right now, if everything it needs is
   * there; undefined otherwise. For the download fast path, which must not wait.
   */
  function peekForPrincipal(principal: Principal): AccessDecider | undefined {
    if (principal.admin) return ADMIN_ACCESS;
    if (principal.anonymous) {
      const settings = deps.securityConfig.peek();
      if (!settings) return undefined;
      if (!settings.anonAccessEnabled) return NO_ACCESS;
    }
    const groups =
      principal.groups ??
      (principal.userId === undefined ? [] : memberships.peek(principal.userId));
    return groups && deciders.peek(deciderKey(grantedName(principal), groups));
  }

  async function find(name: string): Promise<PermissionTarget> {
    const found = (await allTargets()).find((target) => target.name === name);
    if (!found) throw new NotFound(M.notFound(name));
    return found;
  }

  return {
    forPrincipal,
    peekForPrincipal,
    forBuilds,

    /** Throws 403 unless the caller may do `action` on the node: for routes that act on one. */
    async require(
      principal: Principal,
      action: RepoAction,
      repoKey: string,
      path: string,
      kind: NodeKind = 'file',
    ): Promise<AccessDecider> {
      const access = await forPrincipal(principal);
      if (!access.can(action, repoKey, path, kind))
        throw refusal(access, principal, action, repoKey, path, kind);
      return access;
    },

    denied,

    /**
     * `require` for a node whose kind the caller does not know yet (the console's tabs). The
     * repository is looked up first, so an unknown one is a 404 as before; a missing node is
     * judged as a file, so that a caller learns nothing of paths it may not read.
     */
    async requireOn(
      principal: Principal,
      action: RepoAction,
      repoKey: string,
      path: string,
    ): Promise<AccessDecider> {
      const kind = (await deps.isFolder(repoKey, path)) ? 'folder' : 'file';
      const access = await forPrincipal(principal);
      if (!access.can(action, repoKey, path, kind))
        throw refusal(access, principal, action, repoKey, path, kind);
      return access;
    },

    /**
     * The item walker for a caller: every operation that acts on more than the item its
     * request names checks each item through it (subtree-walk.ts).
     */
    async walker(principal: Principal): Promise<ItemWalker> {
      return createItemWalker(db, await forPrincipal(principal), principal);
    },

    list: allTargets,
    get: find,
    grantee,

    /**
     * The targets a caller may open in the permissions editor: every one for an admin; for
     * anyone else those that grant them Manage (spec 01 §6), none for anonymous callers.
     */
    async managedBy(principal: Principal): Promise<PermissionTarget[]> {
      if (principal.admin) return allTargets();
      if (principal.anonymous) return [];
      const who = await grantee(principal);
      const naming = await permissionTargetsNaming(db, who.name, who.groups);
      return naming.filter((target) => manages(target, who));
    },

    async create(target: PermissionTarget): Promise<PermissionTarget> {
      const checked = await checkTarget(target, deps.checks);
      refuseIllegalName(checked.name);
      try {
        await insertPermissionTarget(db, checked);
      } catch (error) {
        throw isUniqueViolation(error) ? new Conflict(M.nameExists, 'name') : error;
      }
      return checked;
    },

    /**
     * Creates or replaces; answers whether it was new. `beforeWrite` sees the target as it
     * will be stored (defaults filled in, actions implied) and may refuse it.
     */
    async put(
      target: PermissionTarget,
      beforeWrite?: (checked: PermissionTarget) => void,
    ): Promise<{ created: boolean; target: PermissionTarget }> {
      const checked = await checkTarget(target, deps.checks);
      // A name stored before the rule (a restored backup, an older Depot) may still be saved.
      if (!(await allTargets()).some((stored) => stored.name === checked.name))
        refuseIllegalName(checked.name);
      beforeWrite?.(checked);
      const created = await replacePermissionTarget(db, checked);
      return { created, target: checked };
    },

    async delete(name: string): Promise<void> {
      if (!(await deletePermissionTarget(db, name))) throw new NotFound(M.notFound(name));
    },

    /** The targets that name a user or a group, each section with that principal's actions. */
    async grantedTo(kind: 'users' | 'groups', name: string) {
      return (await allTargets()).flatMap((target) => {
        const sections = ALL_SECTIONS.flatMap((section) => {
          const part = target[section];
          const actions = part?.actions[kind][name];
          if (!part || !actions) return [];
          const { actions: _all, ...rest } = part;
          return [[section, { ...rest, actions }] as const];
        });
        return sections.length > 0 ? [{ name: target.name, ...Object.fromEntries(sections) }] : [];
      });
    },
  };
}

export type AccessService = ReturnType<typeof createAccessService>;
