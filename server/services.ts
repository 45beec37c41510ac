import { loadCatalogue } from './catalogue/catalogue.ts';
import type { Database } from './db/database.ts';
import { createAuthService } from './modules/auth/service.ts';
import { createGroupsService } from './modules/groups/service.ts';
import { createSecurityConfigService } from './modules/security-config/service.ts';
import { createUsersService } from './modules/users/service.ts';
import { createArtifactsService } from './modules/artifacts/service.ts';
import { createGarbageCollector } from './modules/maintenance/garbage-collector.ts';
import { createRemoteService } from './modules/remote/service.ts';
import { createRepositoriesService } from './modules/repositories/service.ts';
import { createTrashService } from './modules/trash/service.ts';
import type { SchemaRegistry } from './schemas/registry.ts';
import type { Filestore } from './storage/filestore.ts';
import type { VersionInfo } from './version.ts';

/** Every service of the app, built once from the database; routes receive this. */
export function createServices(
  db: Database,
  schemas: SchemaRegistry,
  version: VersionInfo,
  filestore: Filestore,
) {
  const securityConfig = createSecurityConfigService(db);
  const catalogue = loadCatalogue();
  const repositories = createRepositoriesService(db, catalogue);
  const artifacts = createArtifactsService(db, filestore, repositories);
  return {
    catalogue,
    filestore,
    repositories,
    artifacts,
    remote: createRemoteService(db, filestore, artifacts, securityConfig),
    trash: createTrashService(db, artifacts),
    garbageCollector: createGarbageCollector(db, filestore),
    db,
    schemas,
    version,
    securityConfig,
    auth: createAuthService(db, securityConfig),
    users: createUsersService(db),
    groups: createGroupsService(db),
  };
}

export type Services = ReturnType<typeof createServices>;
