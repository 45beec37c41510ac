import { createKeyRulesCheck } from './modules/repositories/key-rules.ts';
import { loadCatalogue } from './catalogue/catalogue.ts';
import type { Database } from './db/database.ts';
import { TableChanges } from './db/table-changes.ts';
import { createAuthService } from './modules/auth/service.ts';
import { createSignInLocks } from './modules/auth/sign-in-locks.ts';
import { createMfaService } from './modules/mfa/service.ts';
import { createProjectsService } from './modules/projects/service.ts';
import { SignInThrottle } from './modules/auth/sign-in-throttle.ts';
import { createMailService } from './modules/mail/service.ts';
import { createPasswordFlows } from './modules/mail/password-flows.ts';
import { createUserTokens } from './modules/mail/user-tokens.ts';
import { createGroupsService } from './modules/groups/service.ts';
import { createSecurityConfigService } from './modules/security-config/service.ts';
import { createUsersService } from './modules/users/service.ts';
import { createArtifactsService } from './modules/artifacts/service.ts';
import { createArtifactGeneralService } from './modules/artifact-general/service.ts';
import { createArtifactPropertiesService } from './modules/artifact-properties/service.ts';
import { createGarbageCollector } from './modules/maintenance/garbage-collector.ts';
import { createBlobHold } from './modules/maintenance/blob-hold.ts';
import { createDownloadStats } from './modules/maintenance/download-stats.ts';
import { createMaintenanceSettings } from './modules/maintenance/settings.ts';
import { createStorageQuota } from './modules/maintenance/storage-quota.ts';
import { createRemoteService } from './modules/remote/service.ts';
import { createProxiesService, PROXY_ENTITY } from './modules/proxies/service.ts';
import { createRepositoriesService } from './modules/repositories/service.ts';
import { createAccessService } from './modules/access-control/service.ts';
import { createApiKeysService } from './modules/access-tokens/api-keys.ts';
import { createAccessTokensService } from './modules/access-tokens/service.ts';
import { orUndefined } from './modules/access-control/validation.ts';
import { createEntityStores } from './modules/entities/entity-stores.ts';
import { createStorageSummaryService } from './modules/storage-summary/service.ts';
import { createTrashService } from './modules/trash/service.ts';
import { createTreeBrowserService } from './modules/tree-browser/service.ts';
import { createWatchesService } from './modules/watches/service.ts';
import type { SchemaRegistry } from './schemas/registry.ts';
import type { Filestore } from './storage/filestore.ts';
import type { VersionInfo } from './version.ts';
import type { SecretBox } from './crypto/secret-box.ts';
import { createGeneralConfigService } from './modules/general-config/service.ts';
import { createNpmService } from './formats/npm/service.ts';
import { createPypiService } from './formats/pypi/service.ts';
import { createMavenService } from './formats/maven/service.ts';
import { combineIndexers } from './formats/indexers.ts';
import { createPackagesService } from './modules/packages/service.ts';
import { createSearchService } from './modules/search/service.ts';
import { createFormatRuntimes } from './formats/runtimes.ts';
import { createWebLogins } from './formats/npm/web-login.ts';
import { createNpmPeople } from './formats/npm/people.ts';
import { createWebhooksService } from './modules/webhooks/service.ts';
import { archiveEntriesIndexer } from './modules/search/archive-entries-indexer.ts';
import { createBuilds } from './modules/builds/builds.ts';
import type { FolderDownloadLimits } from './config.ts';

/** Every service of the app, built once from the database; routes receive this. */
export function createServices(
  database: Database,
  schemas: SchemaRegistry,
  version: VersionInfo,
  filestore: Filestore,
  secrets: SecretBox,
  /** How many projects may exist (DEPOT_PROJECTS_LIMIT). */
  projectsLimit = 300,
  /** A webhook test's timeout, and the address payloads name as their origin (docs/webhooks.md). */
  webhookOptions = { timeoutMs: 10000, origin: '' },
  /** Where backups may be written (DEPOT_BACKUP_DIRS): the backup hooks check paths with it. */
  backupDirs: string[] = [],
  /** Folder download limits set in the environment, over the general configuration's. */
  folderDownloadOverrides: Partial<FolderDownloadLimits> = {},
) {
  // Writes through `db` clear the in-process read caches (credentials, repositories).
  const changes = new TableChanges();
  const db = database.withPlugin(changes);
  const catalogue = loadCatalogue();
  // The schema engine's stores; their hooks reach the services below once those exist.
  const entities = createEntityStores({
    db,
    registry: schemas,
    box: secrets,
    services: () => ({ catalogue, repositories, webhooks, proxies, backupDirs, db }),
  });
  const proxies = createProxiesService(db, () => entities.collection(PROXY_ENTITY), secrets);
  const securityConfig = createSecurityConfigService(entities.single('security-settings'), changes);
  const layouts = entities.collection('repo-layout');
  const repositories = createRepositoriesService(
    db,
    catalogue,
    createKeyRulesCheck(() => schemas.entities.get('repository')!),
    changes,
    secrets,
    (name) => layouts.exists(name),
    (key) => proxies.exists(key),
  );
  const webhooks = createWebhooksService({
    db,
    box: secrets,
    store: () => entities.collection('webhook'),
    allowList: async () => (await securityConfig.get()).remoteAllowList,
    proxyOf: (key) => proxies.resolve(key, 'webhooks'),
    ...webhookOptions,
    // The base URL an admin set, else DEPOT_PUBLIC_URL (docs/webhooks.md).
    origin: async () => (await generalConfig.baseUrl()) ?? webhookOptions.origin,
    changes,
  });
  const generalConfig = createGeneralConfigService(
    entities.single('general-settings'),
    folderDownloadOverrides,
  );
  // Package formats check and index the files stored into their repositories
  // (server/formats/); Maven's service reads artifacts back, once both exist.
  const maven = createMavenService({
    db,
    filestore,
    artifacts: () => artifacts,
    remote: () => remote,
  });
  const formats = createFormatRuntimes({ db, maven });
  const artifacts = createArtifactsService(
    db,
    filestore,
    repositories,
    changes,
    combineIndexers([...formats.map((format) => format.prepareIndex), archiveEntriesIndexer]),
  );
  const maintenanceSettings = createMaintenanceSettings(db);
  const watches = createWatchesService(db, artifacts);
  const treeBrowser = createTreeBrowserService(db, repositories, artifacts, watches);
  const signInLocks = createSignInLocks({ db, securityConfig, changes });
  const users = createUsersService(db, securityConfig, signInLocks, changes);
  const auth = createAuthService(db, securityConfig, signInLocks, changes);
  const mail = createMailService(entities.single('mail-settings'));
  const groups = createGroupsService(db);
  const access = createAccessService({
    db,
    changes,
    securityConfig,
    repositories,
    checks: {
      repositoryClass: (key) => orUndefined(repositories.get(key)),
      userIsAdmin: async (name) => (await orUndefined(users.get(name)))?.admin,
      groupIsAdmin: async (name) => (await orUndefined(groups.get(name)))?.adminPrivileges,
    },
    isFolder: (repoKey, path) => artifacts.isFolder(repoKey, path),
  });
  const remote = createRemoteService(db, filestore, artifacts, {
    securityConfig,
    generalConfig,
    secrets,
    proxies,
  });
  const trash = createTrashService(db, artifacts, generalConfig);
  const artifactProperties = createArtifactPropertiesService(db, artifacts);
  const downloadStats = createDownloadStats(db);
  // Backups hold blob deletion off while they copy (docs/backup.md, "Consistency").
  const blobHold = createBlobHold();
  const npm = createNpmService({ db, filestore, artifacts, remote, trash, access, changes });
  return {
    /** Announces writes to the read caches; the change listener feeds it other nodes' too. */
    tableChanges: changes,
    catalogue,
    filestore,
    repositories,
    /** The schema engine's documents, by entity (docs/adding-a-screen.md). */
    entities,
    artifacts,
    treeBrowser,
    watches,
    artifactGeneral: createArtifactGeneralService({ db, artifacts, filestore, downloadStats }),
    artifactProperties,
    /** CI's build-info: upload, browse, compare, promote (docs/builds.md). */
    builds: createBuilds({
      db,
      schemas,
      artifacts,
      repositories,
      access,
      properties: artifactProperties,
    }),
    remote,
    generalConfig,
    trash,
    /** Webhook subscriptions' deliveries, tests and history (docs/webhooks.md). */
    webhooks,
    proxies,
    npm,
    /** npm's stars and access lists (docs/npm.md, "Account commands"). */
    npmPeople: createNpmPeople({
      db,
      npm,
      artifacts,
      access,
      principalOf: async (name) => {
        const found = await users.get(name);
        const userId = await users.findId(name);
        return { userId, name: found.name, admin: found.admin, anonymous: false, via: 'basic' };
      },
      userNames: async () => (await users.list()).map((user) => user.name),
    }),
    pypi: createPypiService({ db, filestore, artifacts, remote, access }),
    maven,
    /** The package formats at work: their indexers and client routes (docs/formats.md). */
    formats,
    /** npm's web logins waiting for the user's approval in the console (docs/npm.md). */
    npmWebLogins: createWebLogins(),
    packages: createPackagesService({ db, access, repositories }),
    search: createSearchService({ db, access, repositories, artifacts, remote }),
    garbageCollector: createGarbageCollector(db, filestore, blobHold),
    blobHold,
    maintenanceSettings,
    downloadStats,
    storageQuota: createStorageQuota(filestore.root, maintenanceSettings),
    storageSummary: createStorageSummaryService(db, filestore, catalogue),
    db,
    /** The master key's box: what a feature keeps sealed at rest (license bucket files). */
    secrets,
    schemas,
    version,
    securityConfig,
    /** Who may do what with artifacts: ask `access.forPrincipal(request.principal)`. */
    access,
    auth,
    /** Temporary locks of an account at a client address after failed sign-ins. */
    signInLocks,
    /** Progressive delay per client address for password sign-ins (console and basic auth). */
    signInThrottle: new SignInThrottle(),
    mfa: createMfaService({
      db,
      secrets,
      securityConfig,
      locks: signInLocks,
    }),
    tokens: createAccessTokensService({ db, secrets, changes }),
    apiKeys: createApiKeysService({ db, secrets, changes }),
    users,
    groups,
    mail,
    projects: createProjectsService({
      db,
      repositories,
      limit: projectsLimit,
      userExists: (name) => users.exists(name),
      groupExists: async (name) => (await orUndefined(groups.get(name))) !== undefined,
    }),
    passwordFlows: createPasswordFlows({
      db,
      mail,
      tokens: createUserTokens(db),
      auth,
      users,
      securityConfig,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
