import type { Principal } from '../../http/permissions.ts';
import type { AccessService } from '../../modules/access-control/service.ts';
import type { RepoAction } from '../../modules/access-control/decider.ts';
import type { ArtifactsService } from '../../modules/artifacts/service.ts';
import { RegistryError, RegistryUnauthorized } from './protocol-errors.ts';
import type { ImageRef } from './names.ts';
import type { RegistryAccess } from './tokens.ts';

export type RegistryAction = 'pull' | 'push' | 'delete';

/** The Depot permission each protocol action needs (push needs Deploy; as in Artifactory). */
const REPO_ACTION: Record<RegistryAction, RepoAction> = {
  pull: 'read',
  push: 'deploy',
  delete: 'delete',
};

/**
 * Who calls the registry. `granted` is set when the caller came with a registry token: it
 * may then do only what the token grants, and the decider must still allow it.
 */
export interface RegistryCaller {
  principal: Principal;
  granted?: RegistryAccess[];
}

type RepositoryRow = Awaited<ReturnType<ArtifactsService['repository']>>;

/**
 * Every decision of the registry about a caller and an image, through the same decider as
 * every other route (`access.forPrincipal`), project roles and environments included. A
 * refusal names the scope a token would need, for the Bearer challenge.
 */
export function createRegistryAccess(deps: { access: AccessService; artifacts: ArtifactsService }) {
  const { access, artifacts } = deps;

  /** The Docker repository a name's first part (or the address) names. */
  async function dockerRepository(repoKey: string): Promise<RepositoryRow> {
    const repo = await artifacts.repository(repoKey).catch(() => undefined);
    if (!repo || repo.package_type !== 'docker')
      throw new RegistryError('NAME_UNKNOWN', `No Docker repository '${repoKey}' exists`);
    return repo;
  }

  /** Whether the principal may do an action on an image (or a path below it) of a repository. */
  async function allows(
    principal: Principal,
    action: RegistryAction,
    repoKey: string,
    path: string,
  ): Promise<boolean> {
    const decider = await access.forPrincipal(principal);
    return decider.can(REPO_ACTION[action], repoKey, path, 'folder');
  }

  const tokenGrants = (caller: RegistryCaller, name: string, action: RegistryAction) =>
    caller.granted === undefined ||
    caller.granted.some(
      (entry) =>
        entry.type === 'repository' &&
        entry.name === name &&
        (entry.actions.includes(action) || entry.actions.includes('*')),
    );

  /**
   * Refuses unless the caller may do `action` on `path` of `repoKey` (the image's folder, or
   * a tag's): anonymous callers and tokens lacking the scope hear the challenge (401), others
   * `DENIED` (403).
   */
  async function authorize(
    caller: RegistryCaller,
    ref: ImageRef,
    action: RegistryAction,
    repoKey: string = ref.repoKey,
    path: string = ref.image,
  ): Promise<void> {
    const scope = `repository:${ref.name}:${action}`;
    if (
      tokenGrants(caller, ref.name, action) &&
      (await allows(caller.principal, action, repoKey, path))
    )
      return;
    if (caller.principal.anonymous || !tokenGrants(caller, ref.name, action))
      throw new RegistryUnauthorized('Authentication is required', scope);
    throw new RegistryError(
      'DENIED',
      `'${caller.principal.name}' may not ${action} ${ref.name}${path === ref.image ? '' : ` (${path})`}`,
    );
  }

  /**
   * The actions of a scope the principal may have, for the token endpoint: each asked action
   * it is allowed, no other (a wildcard `*` stands for pull, push and delete).
   */
  async function permittedActions(
    principal: Principal,
    ref: ImageRef,
    asked: string[],
  ): Promise<string[]> {
    const wanted = new Set(
      asked.flatMap((action) => (action === '*' ? ['pull', 'push', 'delete'] : [action])),
    );
    const repo = await dockerRepository(ref.repoKey).catch(() => undefined);
    if (!repo) return [];
    const granted: string[] = [];
    for (const action of ['pull', 'push', 'delete'] as const) {
      if (!wanted.has(action)) continue;
      const target =
        action === 'pull' ? repo : await artifacts.deployTarget(repo.key).catch(() => undefined);
      if (target && (await allows(principal, action, target.key, ref.image))) granted.push(action);
    }
    return granted;
  }

  return { dockerRepository, authorize, allows, permittedActions, tokenGrants };
}

export type RegistryAccessRules = ReturnType<typeof createRegistryAccess>;
