import type { Database } from '../../db/database.ts';
import { BadRequest, Forbidden } from '../../errors.ts';
import { ANONYMOUS, type Principal } from '../../http/permissions.ts';
import type { createAccessService } from '../../modules/access-control/service.ts';
import type { ArtifactsService } from '../../modules/artifacts/service.ts';
import type { FormatCaller } from '../caller.ts';
import { NPM_MESSAGES as M } from './messages.ts';
import type { NpmService } from './service.ts';
import { createNpmStars } from './stars.ts';
import { createNpmStore } from './store.ts';

type AccessService = ReturnType<typeof createAccessService>;

/** How many packages `npm access list packages` lists at most. */
const ACCESS_LIST_LIMIT = 1000;

const isObject = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/**
 * npm's commands about people (docs/npm.md, "Account commands"): stars, and what access a
 * user or anonymous callers have to packages, answered from Depot's permissions.
 */
export function createNpmPeople(deps: {
  db: Database;
  npm: NpmService;
  artifacts: ArtifactsService;
  access: AccessService;
  /** Principals of other users (collaborators), by name. */
  principalOf: (name: string) => Promise<Principal>;
  userNames: () => Promise<string[]>;
}) {
  const { npm, access, artifacts } = deps;
  const stars = createNpmStars(deps.db);
  const store = createNpmStore(deps.db);

  /** The local repositories whose packages a repository serves, in its read order. */
  async function localsOf(repoKey: string) {
    const repo = await npm.npmRepository(repoKey);
    return {
      repo,
      locals: (await artifacts.readOrder(repo, '')).filter((r) => r.rclass === 'local'),
    };
  }

  /** The document body of `npm star` or `npm unstar`: `{_id, _rev, users}` and nothing else. */
  function isStarDocument(body: unknown): body is { users: Record<string, unknown> } {
    return (
      isObject(body) && isObject(body.users) && !('versions' in body) && !('_attachments' in body)
    );
  }

  return {
    isStarDocument,

    /** Stars or unstars a package for the caller, as the caller's entry in `users` says. */
    async star(
      repoKey: string,
      name: string,
      users: Record<string, unknown>,
      caller: FormatCaller,
    ) {
      const { principal } = caller;
      if (principal.userId === undefined) throw new Forbidden(M.starsNeedUser);
      // The package must be there and readable: its document answers both.
      await npm.packument(repoKey, name, caller);
      const repo = await npm.npmRepository(repoKey);
      const mine = Object.keys(users).find((u) => u.toLowerCase() === principal.name.toLowerCase());
      await stars.set(repo.id, name, principal.userId, mine !== undefined && users[mine] === true);
      return { ok: true, id: name };
    },

    /** Who starred a package, as its document's `users` (asked with `?write=true`). */
    async starrers(repoKey: string, name: string) {
      const repo = await npm.npmRepository(repoKey);
      return Object.fromEntries((await stars.starrers(repo.id, name)).map((u) => [u, true]));
    },

    /** The packages a user starred through a repository that the caller may read. */
    async starredBy(repoKey: string, userName: string, caller: FormatCaller) {
      const repo = await npm.npmRepository(repoKey);
      const decider = await access.forPrincipal(caller.principal);
      const names = await stars.starredBy(repo.id, userName);
      const readable = await Promise.all(
        names.map(async (name) => {
          const locations = await artifacts.readOrder(repo, name);
          return locations.some((r) => decider.can('read', r.key, name, 'folder'));
        }),
      );
      return names.filter((_name, index) => readable[index]);
    },

    /** `npm access list packages`: `{name: read-write | read-only}` for `principal`. */
    async accessOf(repoKey: string, principal: Principal, caller: FormatCaller) {
      const { locals } = await localsOf(repoKey);
      const [asker, decider] = await Promise.all([
        access.forPrincipal(caller.principal),
        access.forPrincipal(principal),
      ]);
      const keyOf = new Map(locals.map((r) => [r.id, r.key]));
      const rows = await store.search([...keyOf.keys()], '', ACCESS_LIST_LIMIT, 0);
      const answer: Record<string, string> = {};
      for (const row of rows) {
        const key = keyOf.get(row.repository_id)!;
        if (!asker.can('read', key, row.name, 'folder')) continue;
        if (decider.can('deploy', key, row.name, 'folder')) answer[row.name] ??= 'read-write';
        else if (decider.can('read', key, row.name, 'folder')) answer[row.name] ??= 'read-only';
      }
      return answer;
    },

    /**
     * `npm access list collaborators`: the users who may publish (read-write) or read the
     * package where it is published. Shown to those who may publish it themselves.
     */
    async collaborators(repoKey: string, name: string, caller: FormatCaller) {
      const target = await artifacts.deployTarget(repoKey);
      await access.require(caller.principal, 'deploy', target.key, name, 'folder');
      const answer: Record<string, string> = {};
      for (const userName of await deps.userNames()) {
        const decider = await access.forPrincipal(await deps.principalOf(userName));
        if (decider.can('deploy', target.key, name, 'folder')) answer[userName] = 'read-write';
        else if (decider.can('read', target.key, name, 'folder')) answer[userName] = 'read-only';
      }
      return answer;
    },

    /** `npm access get status`: public when anonymous callers may read the package. */
    async visibility(repoKey: string, name: string, caller: FormatCaller) {
      await npm.packument(repoKey, name, caller);
      const repo = await npm.npmRepository(repoKey);
      const anonymous = await access.forPrincipal(ANONYMOUS);
      const locations = await artifacts.readOrder(repo, name);
      return { public: locations.some((r) => anonymous.can('read', r.key, name, 'folder')) };
    },

    refuseChange(): never {
      throw new BadRequest(M.accessManagedInDepot);
    },
  };
}

export type NpmPeople = ReturnType<typeof createNpmPeople>;
