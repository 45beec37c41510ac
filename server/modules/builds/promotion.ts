import type { Database } from '../../db/database.ts';
import { AccessDenied, BadRequest } from '../../errors.ts';
import type { Principal } from '../../http/permissions.ts';
import type { AccessService } from '../access-control/service.ts';
import type { ItemWalker } from '../access-control/subtree-walk.ts';
import { transfer } from '../artifacts/copy-move.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import type { ArtifactPropertiesService } from '../artifact-properties/service.ts';
import { BUILD_MESSAGES as M } from './messages.ts';
import { buildFiles, insertPromotion, storedFilesWith } from './queries.ts';
import { emitEvents } from '../events/outbox.ts';
import { buildEvent } from './build-events.ts';
import type { BuildsService } from './service.ts';

export interface PromotionRequest {
  status?: string;
  comment?: string;
  ciUser?: string;
  timestamp?: string;
  dryRun?: boolean;
  sourceRepo?: string;
  targetRepo?: string;
  copy?: boolean;
  artifacts?: boolean;
  dependencies?: boolean;
  scopes?: string[];
  properties?: Record<string, string[]>;
}

/**
 * POST /api/build/promote/{name}/{number} (docs/builds.md, "Promotion"): Manage on the
 * build, then each stored file the build lists (its artifacts, and its dependencies of the
 * given scopes when asked) is copied or moved to the target repository at the same path,
 * each checked through the caller's walker first (a dry run stops there), and the status
 * joins the release history.
 */
export function createBuildPromotion(deps: {
  db: Database;
  builds: BuildsService;
  access: AccessService;
  artifacts: ArtifactsService;
  repositories: RepositoriesService;
  properties: ArtifactPropertiesService;
}) {
  const { db } = deps;

  async function filesToPromote(buildId: number, request: PromotionRequest, walker: ItemWalker) {
    const wanted = (await buildFiles(db, buildId)).filter((file) =>
      file.kind === 'artifact'
        ? request.artifacts !== false
        : request.dependencies === true &&
          (!request.scopes?.length ||
            (file.scopes ?? '').split(',').some((scope) => request.scopes!.includes(scope))),
    );
    const stored = await storedFilesWith(db, {
      sha1: wanted.flatMap((file) => (file.sha1 ? [file.sha1] : [])),
      sha256: wanted.flatMap((file) => (file.sha256 ? [file.sha256] : [])),
    });
    const target = request.targetRepo!.toLowerCase();
    // One stored file per content, from the source repository when one is named. Content
    // stored only where the caller may not read it refuses the promotion: it is the build's,
    // and promoting the rest would be a partial release.
    const chosen = new Map<string, (typeof stored)[number]>();
    const unreadable = new Set<string>();
    for (const file of stored) {
      if (file.rclass !== 'local' || file.repoKey.toLowerCase() === target) continue;
      if (request.sourceRepo && file.repoKey !== request.sourceRepo) continue;
      if (!walker.access.can('read', file.repoKey, file.path, 'file')) unreadable.add(file.sha256!);
      else if (!chosen.has(file.sha256!)) chosen.set(file.sha256!, file);
    }
    // The refusal names no path: the caller may not know what it cannot read.
    for (const sha256 of unreadable)
      if (!chosen.has(sha256)) throw new AccessDenied(M.unreadableContent);
    return [...chosen.values()];
  }

  return async function promote(
    principal: Principal,
    name: string,
    number: string,
    request: PromotionRequest,
    projectKey?: string,
  ) {
    const { row, decider } = await deps.builds.find(principal, name, number, { projectKey });
    if (!decider.can('manage', { repositoryKey: row.repository_key, path: row.path }))
      throw new AccessDenied(M.forbidden);
    const walker = await deps.access.walker(principal);
    const messages: { level: string; message: string }[] = [];
    const files: Awaited<ReturnType<typeof filesToPromote>> = [];
    if (request.targetRepo) {
      const target = await deps.repositories.findRow(request.targetRepo);
      if (!target || target.rclass !== 'local')
        throw new BadRequest(M.noTargetRepo(request.targetRepo), 'targetRepo');
      files.push(...(await filesToPromote(row.id, request, walker)));
      const kind = request.copy ? 'copy' : 'move';
      const each = (dryRun: boolean) =>
        files.map((file) =>
          transfer(db, deps.artifacts, {
            kind,
            fromRepo: file.repoKey,
            fromPath: file.path,
            toRepo: target.key,
            toPath: file.path,
            dryRun,
            walker,
          }),
        );
      // Every file is checked before any is written: a refusal of one promotes nothing.
      for (const check of each(true)) await check;
      if (!request.dryRun) {
        for (const file of files) {
          await transfer(db, deps.artifacts, {
            kind,
            fromRepo: file.repoKey,
            fromPath: file.path,
            toRepo: target.key,
            toPath: file.path,
            dryRun: false,
            walker,
          });
          for (const [key, values] of Object.entries(request.properties ?? {}))
            await deps.properties.set(
              { repoKey: target.key, path: file.path, recursive: false },
              { name: key, value: values },
              walker,
            );
        }
      }
      for (const file of files)
        messages.push({
          level: 'INFO',
          message: `${request.dryRun ? 'Would ' + kind : kind === 'copy' ? 'Copied' : 'Moved'} ${file.repoKey}:${file.path} to ${target.key}:${file.path}`,
        });
    }
    if (!request.dryRun) {
      // The release history's entry and the event commit together.
      await db.transaction().execute(async (tx) => {
        if (request.status)
          await insertPromotion(tx, {
            build_id: row.id,
            status: request.status,
            comment: request.comment ?? '',
            repository: request.targetRepo ?? null,
            ci_user: request.ciUser ?? null,
            user_name: principal.name,
            ...(request.timestamp && !Number.isNaN(Date.parse(request.timestamp))
              ? { timestamp: new Date(request.timestamp) }
              : {}),
          });
        await emitEvents(tx, [buildEvent('promoted', row, principal.name)]);
      });
    }
    return { messages };
  };
}
