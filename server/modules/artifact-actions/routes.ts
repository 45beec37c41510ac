import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest, Forbidden, NotFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { Principal } from '../../http/permissions.ts';
import { transfer, type TransferKind } from '../artifacts/copy-move.ts';
import { parseArtifactPath } from '../artifacts/paths.ts';
import { zapCache } from '../remote/zap.ts';
import { calculateIndex, INDEXED_PACKAGE_TYPES } from './calculate-index.ts';
import {
  VERSIONED_PACKAGE_TYPES,
  versionEntries,
  versionFoldersBelow,
  versionKey,
} from './delete-versions.ts';
import { TRASH_REPO_KEY } from '../trash/service.ts';
import { ACTION_MESSAGES } from './messages.ts';

const BASE = '/ui/api/v1/ui/artifactactions';

const text = { type: 'string' } as const;
const flag = { type: 'boolean', default: false } as const;
const repoKey = { type: 'string', minLength: 1 } as const;

interface TransferBody {
  repoKey: string;
  path: string;
  targetRepoKey: string;
  targetPath?: string;
  dryRun: boolean;
  suppressLayouts?: boolean;
  failFast?: boolean;
}
interface DeleteBody {
  repoKey: string;
  path: string;
  permDelete: boolean;
}
interface RestoreBody {
  repoKey: string;
  path: string;
  targetRepoKey?: string;
  targetPath?: string;
  dryRun: boolean;
}

const bodySchema = (required: string[], properties: Record<string, object>) => ({
  body: { type: 'object', additionalProperties: false, required, properties },
});

/** A path as the console sends it, normalised like every artifact path; '' is the root. */
const artifactPath = (raw: string | undefined) => parseArtifactPath(raw ?? '').path;

/** A target path keeps a trailing '/' ("into this folder, under its own name"). */
function targetPath(raw: string | undefined): string {
  const path = artifactPath(raw);
  return raw?.endsWith('/') && path ? `${path}/` : path;
}

/**
 * Copy, move and delete: checked per node against the permission targets (services.access),
 * each acting on a folder's whole subtree, which the item walker checks item by item.
 */
const PER_NODE = { permission: 'reader' as const, reach: 'many' as const };
/**
 * The trash can (restore, empty), zapping caches and calculating an index: administrators'
 * housekeeping, over whole subtrees, walked all the same.
 */
const TRASH_AND_CACHES = { permission: 'admin' as const, reach: 'many' as const };

/**
 * The tree browser's node actions (spec 02 §3 and §7): copy, move, delete, restore and
 * empty trash, each the same service as the scripted calls behind it. Success answers
 * `{info}`; failures the usual `{errors}`.
 */
export async function artifactActionsRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { trash, artifacts } = services;

  for (const kind of ['copy', 'move'] as TransferKind[]) {
    app.post<{ Body: TransferBody }>(
      `${BASE}/${kind}`,
      {
        config: PER_NODE,
        schema: bodySchema(['repoKey', 'path', 'targetRepoKey'], {
          repoKey,
          path: text,
          targetRepoKey: repoKey,
          targetPath: text,
          dryRun: flag,
          // Accepted as the console sends them: a transfer is all or nothing (so it always
          // fails fast) and Depot does not translate between layouts.
          suppressLayouts: flag,
          failFast: flag,
        }),
      },
      async (request: FastifyRequest<{ Body: TransferBody }>) => {
        const body = request.body;
        const result = await transfer(services.db, artifacts, {
          kind,
          fromRepo: body.repoKey,
          fromPath: artifactPath(body.path),
          toRepo: body.targetRepoKey,
          toPath: targetPath(body.targetPath),
          dryRun: body.dryRun,
          walker: await services.access.walker(request.principal),
        });
        return { info: result.message };
      },
    );
  }

  app.post<{ Body: DeleteBody }>(
    `${BASE}/delete`,
    {
      config: PER_NODE,
      schema: bodySchema(['repoKey', 'path'], { repoKey, path: text, permDelete: flag }),
    },
    async (request) => {
      const { repoKey: key, permDelete } = request.body;
      const path = artifactPath(request.body.path);
      const where = `${key}/${path}`;
      await services.access.require(request.principal, 'delete', key, path);
      // Delete on everything below a folder too: the walker refuses the whole delete otherwise.
      const walker = await services.access.walker(request.principal);
      if (permDelete) {
        await artifacts.delete(key, path, walker);
        return { info: ACTION_MESSAGES.deletedForGood(where) };
      }
      // Spec 02 §4: permanent when the trash can is off or the item is already in it.
      const outcome = await trash.delete(key, path, walker);
      return {
        info:
          outcome === 'trash'
            ? ACTION_MESSAGES.deletedToTrash(where)
            : ACTION_MESSAGES.deletedForGood(where),
      };
    },
  );

  app.post<{ Body: RestoreBody }>(
    `${BASE}/restore`,
    {
      config: TRASH_AND_CACHES,
      schema: bodySchema(['repoKey', 'path'], {
        repoKey,
        path: text,
        targetRepoKey: text,
        targetPath: text,
        dryRun: flag,
      }),
    },
    async (request) => {
      const body = request.body;
      if (body.repoKey.toLowerCase() !== TRASH_REPO_KEY) {
        throw new BadRequest(ACTION_MESSAGES.notInTrash(body.repoKey), 'repoKey');
      }
      const path = artifactPath(body.path);
      const to = body.targetRepoKey
        ? [body.targetRepoKey, targetPath(body.targetPath)].filter(Boolean).join('/')
        : undefined;
      const walker = await services.access.walker(request.principal);
      if (body.dryRun) return { info: await trash.planRestore(path, to, walker) };
      const restoredTo = await trash.restore(path, to, walker);
      return { info: ACTION_MESSAGES.restored(restoredTo) };
    },
  );

  app.post(`${BASE}/emptytrash`, { config: TRASH_AND_CACHES }, async (request) => {
    await trash.empty(await services.access.walker(request.principal));
    return { info: ACTION_MESSAGES.trashEmptied };
  });

  // zap: a remote repository's cache; zapVirtual: the caches of a virtual one's remote members
  for (const action of ['zap', 'zapVirtual'] as const) {
    app.post<{ Body: { repoKey: string; path?: string } }>(
      `${BASE}/${action}`,
      {
        config: TRASH_AND_CACHES,
        schema: bodySchema(['repoKey'], { repoKey, path: text }),
      },
      async (request) => {
        const repo = await artifacts.repository(request.body.repoKey);
        const path = artifactPath(request.body.path);
        const wanted = action === 'zap' ? 'remote' : 'virtual';
        if (repo.rclass !== wanted) {
          throw new BadRequest(ACTION_MESSAGES.notZappable(repo.key, wanted), 'repoKey');
        }
        const remotes = (await artifacts.readOrder(repo, path)).filter(
          (r) => r.rclass === 'remote',
        );
        // Zapping makes every cached file below stale: Delete/Overwrite on each of them.
        const walker = await services.access.walker(request.principal);
        for (const remote of remotes) await walker.requireSubtree('delete', remote, path);
        let files = 0;
        for (const remote of remotes) files += await zapCache(services.db, remote.id, path);
        return { info: ACTION_MESSAGES.zapped(`${repo.key}/${path}`, files) };
      },
    );
  }

  // Spec 03 §7: /ui/artifactactions/calculateIndex (repoKey, type). Reads every file of the
  // repository, so it runs for administrators only, and answers once it is done.
  app.post<{ Body: { repoKey: string; type?: string } }>(
    `${BASE}/calculateIndex`,
    {
      config: TRASH_AND_CACHES,
      schema: bodySchema(['repoKey'], { repoKey, type: text }),
    },
    async (request) => {
      const repo = await artifacts.repository(request.body.repoKey);
      if (repo.rclass !== 'local' || !INDEXED_PACKAGE_TYPES.has(repo.package_type))
        throw new BadRequest(ACTION_MESSAGES.noIndex(repo.key), 'repoKey');
      // Every file is indexed again as if deployed now: Deploy on all of the repository.
      const walker = await services.access.walker(request.principal);
      await walker.requireSubtree('deploy', repo, '');
      const outcome = await calculateIndex(services.db, artifacts, repo, request.principal.name);
      request.log.info(
        { repository: repo.key, by: request.principal.name, ...outcome, refused: undefined },
        'index calculated',
      );
      return { info: ACTION_MESSAGES.indexCalculated(repo.key, outcome), ...outcome };
    },
  );

  // Delete Versions (spec 02 §2, §4): the versions below a folder of a Maven-layout
  // repository, then a chosen few of them deleted (into the trash can when it is on).
  app.get<{ Querystring: { repoKey: string; path?: string } }>(
    `${BASE}/deleteversions`,
    {
      config: PER_NODE,
      schema: {
        querystring: {
          type: 'object',
          required: ['repoKey'],
          properties: { repoKey, path: text },
        },
      },
    },
    async (request) => {
      const path = artifactPath(request.query.path);
      await mayReadVersions(request.principal, request.query.repoKey, path);
      const repo = await versionedRepository(request.query.repoKey);
      const readable = await readableIn(request.principal, repo.key);
      const found = await versionFoldersBelow(services.db, repo.id, path, readable);
      return { versions: versionEntries(found) };
    },
  );

  app.post<{
    Body: { repoKey: string; path?: string; versions: { groupId: string; version: string }[] };
  }>(
    `${BASE}/deleteversions`,
    {
      config: PER_NODE,
      schema: bodySchema(['repoKey', 'versions'], {
        repoKey,
        path: text,
        versions: {
          type: 'array',
          minItems: 1,
          maxItems: 10_000,
          items: {
            type: 'object',
            required: ['groupId', 'version'],
            properties: { groupId: text, version: text, repoKey: text, directoriesCount: {} },
          },
        },
      }),
    },
    async (request) => {
      const path = artifactPath(request.body.path);
      await mayReadVersions(request.principal, request.body.repoKey, path);
      const repo = await versionedRepository(request.body.repoKey);
      const readable = await readableIn(request.principal, repo.key);
      const found = await versionFoldersBelow(services.db, repo.id, path, readable);
      const folders = request.body.versions.flatMap(({ groupId, version }) => {
        const known = found.get(versionKey(groupId, version));
        if (!known) throw new NotFound(ACTION_MESSAGES.noSuchVersion(groupId, version));
        return [...known.folders];
      });
      // All or nothing: every folder, and everything in it, is checked before the first goes.
      const walker = await services.access.walker(request.principal);
      const refused = folders.find((f) => !walker.access.can('delete', repo.key, f, 'folder'));
      if (refused !== undefined)
        throw new Forbidden(ACTION_MESSAGES.mayNotDelete(`${repo.key}/${refused}`));
      for (const folder of folders) await walker.requireSubtree('delete', repo, folder);
      for (const folder of folders) await trash.delete(repo.key, folder, walker);
      request.log.info(
        { repository: repo.key, folders: folders.length, by: request.principal.name },
        'versions deleted',
      );
      return {
        info: ACTION_MESSAGES.versionsDeleted(request.body.versions.length, folders.length),
      };
    },
  );

  /**
   * Read first: a caller who may not read the folder learns nothing of the repository, not
   * whether it exists, its layout, nor which versions it holds (one 403 for all of them).
   */
  function mayReadVersions(principal: Principal, repoKey: string, path: string) {
    return services.access.require(principal, 'read', repoKey, path, 'folder');
  }

  /** Whether the caller may read a file of a repository: versions are known from those only. */
  async function readableIn(principal: Principal, repoKey: string) {
    const access = await services.access.forPrincipal(principal);
    return (filePath: string) => access.can('read', repoKey, filePath, 'file');
  }

  async function versionedRepository(key: string) {
    const repo = await artifacts.repository(key);
    if (repo.rclass !== 'local' || !VERSIONED_PACKAGE_TYPES.has(repo.package_type))
      throw new BadRequest(ACTION_MESSAGES.notVersioned(repo.key), 'repoKey');
    return repo;
  }
}
