import type { Database } from '../../db/database.ts';
import type { Principal } from '../../http/permissions.ts';
import type { AccessService } from '../access-control/service.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import { buildsHolding } from './queries.ts';

/** One build an item's Builds tab lists. */
export interface ItemBuild {
  name: string;
  number: string;
  started: string;
  startedMillis: number;
  moduleID: string;
  projectKey?: string;
  scope?: string;
}

/** The builds that produced an item and those that used it. */
export interface ArtifactBuilds {
  producedBy: ItemBuild[];
  usedBy: ItemBuild[];
}

/**
 * An item's Builds tab (GET /ui/artifactbuilds?repoKey=&path=): the builds whose modules list
 * its content, by SHA-256 or SHA-1, as an artifact (produced by) or a dependency (used by).
 * Only builds the caller may read are listed; the item itself needs read.
 */
export async function artifactBuilds(
  deps: { db: Database; access: AccessService; artifacts: ArtifactsService },
  principal: Principal,
  repoKey: string,
  path: string,
): Promise<ArtifactBuilds> {
  await deps.access.require(principal, 'read', repoKey, path);
  const repo = await deps.artifacts.repository(repoKey);
  const [decider, holding] = await Promise.all([
    deps.access.forBuilds(principal),
    buildsHolding(deps.db, repo.id, path),
  ]);
  const rows = holding.filter((row) =>
    decider.can('read', { repositoryKey: row.repository_key, path: row.path }),
  );
  const entry = (row: (typeof rows)[number]): ItemBuild => ({
    name: row.name,
    number: row.number,
    started: row.started,
    startedMillis: row.started_at.getTime(),
    moduleID: row.module_id,
    projectKey: row.project_key ?? undefined,
    ...(row.kind === 'dependency' && row.scopes ? { scope: row.scopes } : {}),
  });
  const unique = (kind: string) => {
    const seen = new Set<string>();
    return rows
      .filter((row) => row.kind === kind)
      .filter((row) => {
        const key = `${row.id}\u0000${row.module_id}`;
        return !seen.has(key) && seen.add(key) !== undefined;
      })
      .map(entry);
  };
  return { producedBy: unique('artifact'), usedBy: unique('dependency') };
}
