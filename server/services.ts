import type { Database } from './db/database.ts';
import { createAuthService } from './modules/auth/service.ts';
import { createGroupsService } from './modules/groups/service.ts';
import { createSecurityConfigService } from './modules/security-config/service.ts';
import { createUsersService } from './modules/users/service.ts';
import type { SchemaRegistry } from './schemas/registry.ts';
import type { VersionInfo } from './version.ts';

/** Every service of the app, built once from the database; routes receive this. */
export function createServices(db: Database, schemas: SchemaRegistry, version: VersionInfo) {
  const securityConfig = createSecurityConfigService(db);
  return {
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
