import type { Database } from '../../db/database.ts';
import type { Principal } from '../../http/permissions.ts';
import type { SchemaRegistry } from '../../schemas/registry.ts';
import type { AccessService } from '../access-control/service.ts';
import type { ArtifactPropertiesService } from '../artifact-properties/service.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import { artifactBuilds } from './artifact-builds.ts';
import { createBuildInfoValidator } from './build-info.ts';
import { patternArtifacts, type PatternRequest } from './pattern-artifacts.ts';
import { createBuildPromotion } from './promotion.ts';
import { createBuildsService } from './service.ts';
import { createBuildViews } from './views.ts';

/** Builds as the routes see them: the service, its checks, promotion and the lookups. */
export function createBuilds(deps: {
  db: Database;
  schemas: SchemaRegistry;
  artifacts: ArtifactsService;
  repositories: RepositoriesService;
  access: AccessService;
  properties: ArtifactPropertiesService;
}) {
  const service = createBuildsService(deps);
  const schema = deps.schemas.entities.get('build-info');
  if (!schema) throw new Error('schemas/entities/build-info.schema.json is missing');
  return {
    ...service,
    validate: createBuildInfoValidator(schema),
    promote: createBuildPromotion({ ...deps, builds: service }),
    views: createBuildViews({ ...deps, builds: service }),
    patternArtifacts: (principal: Principal, requests: PatternRequest[], projectKey?: string) =>
      patternArtifacts({ ...deps, builds: service }, principal, requests, projectKey),
    artifactBuilds: (principal: Principal, repoKey: string, path: string) =>
      artifactBuilds(deps, principal, repoKey, path),
    /** Whether a build the caller may read lists an item's content (the tree's Builds tab). */
    listsItem: async (principal: Principal, repoKey: string, path: string) => {
      const { producedBy, usedBy } = await artifactBuilds(deps, principal, repoKey, path);
      return producedBy.length + usedBy.length > 0;
    },
  };
}

export type Builds = ReturnType<typeof createBuilds>;
