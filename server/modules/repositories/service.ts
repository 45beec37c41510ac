import { PROXY_MESSAGES } from '../proxies/messages.ts';
import { sql } from 'kysely';
import { dropBuildsOf } from '../builds/dropped-builds.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { Database } from '../../db/database.ts';
import type { RepositoriesTable } from '../../db/tables.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import { createReadCache, deepFreeze } from '../../cache/read-cache.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import type { KeyRulesCheck } from './key-rules.ts';
import { REPO_MESSAGES } from './messages.ts';
import {
  DEFAULT_REPOSITORY_ENVIRONMENTS,
  isEnvironment,
  unknownEnvironment,
} from '../projects/environments.ts';
import { MAVEN_TYPES } from '../../formats/maven/layout.ts';
import { mavenPolicy } from '../../formats/maven/policy.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { refusedUpstreamScheme } from '../remote/upstream-url.ts';

export type RepositoryClass = RepositoriesTable['rclass'];

/** A repository's configuration in Artifactory's JSON shape (scripts send and read this). */
export interface RepositoryConfig {
  key: string;
  rclass: RepositoryClass;
  packageType: string;
  description?: string;
  notes?: string;
  includesPattern?: string;
  excludesPattern?: string;
  repoLayoutRef?: string;
  url?: string;
  offline?: boolean;
  missedRetrievalCachePeriodSecs?: number;
  socketTimeoutMillis?: number;
  /** Upstream basic-auth user of a remote repository. */
  username?: string;
  /** Upstream password: write-only, stored encrypted with the master key, never answered. */
  password?: string;
  /** How long a cached metadata file is served before it is checked upstream again. */
  retrievalCachePeriodSecs?: number;
  /** After a connection error, how long the upstream is not asked again. */
  assumedOfflinePeriodSecs?: number;
  /** Cached files nobody downloaded for this long are cleaned up (hours; 0 = never). */
  unusedArtifactsCleanupPeriodHours?: number;
  repositories?: string[];
  defaultDeploymentRepo?: string;
  /** Serve active content (HTML, SVG, ...) inline, unsandboxed: an admin's opt-out. */
  allowContentBrowsing?: boolean;
  /** The project the repository belongs to (docs/projects.md); its key starts with `{projectKey}-`. */
  projectKey?: string;
  /** Projects that may read it ('*': all of them). */
  sharedWithProjects?: string[];
  /** The environments it sits in (DEV, PROD): which project roles' actions hold on it. */
  environments?: string[];
  /** Maven-layout repositories (docs/maven.md): which versions they take and serve. */
  handleReleases?: boolean;
  handleSnapshots?: boolean;
  /** Unique snapshot builds kept per version; 0 keeps every one. */
  maxUniqueSnapshots?: number;
  /** Let a POM sit at a path its coordinates do not name. */
  suppressPomConsistencyChecks?: boolean;
  /** The outbound proxy a remote repository's upstream is reached through; the default one when empty. */
  proxy?: string;
  /** Connect to the upstream directly, even when a default proxy exists. */
  disableProxy?: boolean;
}

type Row = Awaited<ReturnType<ReturnType<typeof selectRepositories>['executeTakeFirstOrThrow']>>;

// Kind-specific settings live in the config column; these are the ones each kind keeps.
const PROJECT_FIELDS: (keyof RepositoryConfig)[] = [
  'projectKey',
  'sharedWithProjects',
  'environments',
];
const MAVEN_FIELDS: (keyof RepositoryConfig)[] = ['handleReleases', 'handleSnapshots'];
const KIND_FIELDS: Record<RepositoryClass, (keyof RepositoryConfig)[]> = {
  local: [
    'allowContentBrowsing',
    ...PROJECT_FIELDS,
    ...MAVEN_FIELDS,
    'maxUniqueSnapshots',
    'suppressPomConsistencyChecks',
  ],
  remote: [
    'url',
    'offline',
    'missedRetrievalCachePeriodSecs',
    'socketTimeoutMillis',
    'allowContentBrowsing',
    'username',
    'password',
    'retrievalCachePeriodSecs',
    'assumedOfflinePeriodSecs',
    'unusedArtifactsCleanupPeriodHours',
    'proxy',
    'disableProxy',
    ...PROJECT_FIELDS,
    ...MAVEN_FIELDS,
  ],
  virtual: ['repositories', 'defaultDeploymentRepo', 'allowContentBrowsing', ...PROJECT_FIELDS],
};

/** What a kind-specific setting is when nobody set it (Artifactory's defaults). */
const KIND_DEFAULTS: Partial<RepositoryConfig> = {
  offline: false,
  missedRetrievalCachePeriodSecs: 1800,
  socketTimeoutMillis: 15000,
  retrievalCachePeriodSecs: 7200,
  assumedOfflinePeriodSecs: 300,
  unusedArtifactsCleanupPeriodHours: 0,
  repositories: [],
  allowContentBrowsing: false,
  environments: DEFAULT_REPOSITORY_ENVIRONMENTS,
};

/** Settings stored but never answered: they are secrets. */
const WRITE_ONLY_FIELDS: (keyof RepositoryConfig)[] = ['password'];

/**
 * An upstream password is stored encrypted with the master key. None sent keeps the stored
 * one (the console never has it to send back); an empty one removes it.
 */
function sealPassword(
  kindConfig: Record<string, unknown>,
  stored: unknown,
  secrets: SecretBox | undefined,
) {
  const sent = kindConfig.password as string | undefined;
  if (sent === undefined) {
    if (typeof stored === 'string') kindConfig.password = stored;
  } else if (sent === '') {
    delete kindConfig.password;
  } else {
    if (!secrets) throw new Error('No master key to encrypt the upstream password with');
    kindConfig.password = secrets.encrypt(sent);
  }
}

const originOf = (url: string | undefined) => {
  try {
    return new URL(url ?? '').origin;
  } catch {
    return url;
  }
};

/**
 * A stored upstream password goes only to the origin it was saved for: an update that moves
 * the URL elsewhere must send the password again, or whoever may edit the repository could
 * point it at their own host and receive the password they cannot read.
 */
function checkPasswordDestination(
  current: RepositoryConfig,
  change: Partial<RepositoryConfig>,
  stored: unknown,
) {
  if (typeof stored !== 'string' || change.password !== undefined || change.url === undefined)
    return;
  if (originOf(change.url) !== originOf(current.url))
    throw new BadRequest(REPO_MESSAGES.passwordForNewUrl, 'password');
}

function selectRepositories(db: Database) {
  return db.selectFrom('repositories').selectAll();
}

export function toRepositoryConfig(row: Row): RepositoryConfig {
  const config = row.config as Partial<RepositoryConfig>;
  // A Maven-layout repository answers its Maven settings as they apply, defaults included.
  const defaults = MAVEN_TYPES.has(row.package_type)
    ? { ...KIND_DEFAULTS, ...mavenPolicy(row) }
    : KIND_DEFAULTS;
  const kindFields = Object.fromEntries(
    KIND_FIELDS[row.rclass]
      .filter((field) => !WRITE_ONLY_FIELDS.includes(field))
      .map((field) => [field, config[field] ?? defaults[field]]),
  );
  return {
    key: row.key,
    rclass: row.rclass,
    packageType: row.package_type,
    description: row.description,
    notes: row.notes,
    includesPattern: row.includes_pattern,
    excludesPattern: row.excludes_pattern,
    repoLayoutRef: row.repo_layout_ref,
    ...kindFields,
  };
}

/** A remote repository's upstream is an http or https URL (docs/remote-repositories.md). */
function checkUpstreamUrl(config: RepositoryConfig): void {
  if (config.rclass !== 'remote') return;
  if (!config.url) throw new BadRequest(REPO_MESSAGES.urlRequired, 'url');
  const scheme = refusedUpstreamScheme(config.url);
  if (scheme !== undefined) throw new BadRequest(REPO_MESSAGES.urlScheme(scheme), 'url');
}

/** Every environment named exists; none named means the default one. */
function checkEnvironments(config: RepositoryConfig): void {
  const unknown = config.environments?.find((name) => !isEnvironment(name));
  if (unknown !== undefined) throw new BadRequest(unknownEnvironment(unknown), 'environments');
  if (config.environments?.length === 0) delete config.environments;
}

/** A repository made in a project: the project exists and the key carries its prefix. */
async function checkProjectOf(db: Database, key: string, projectKey: string): Promise<void> {
  const project = await db
    .selectFrom('projects')
    .select('key')
    .where('key', '=', projectKey)
    .executeTakeFirst();
  if (!project) throw new BadRequest(REPO_MESSAGES.unknownProject(projectKey), 'projectKey');
  if (!key.startsWith(`${projectKey}-`)) {
    throw new BadRequest(REPO_MESSAGES.projectPrefix(projectKey), 'key');
  }
}

const toKind = (row: { key: string; rclass: RepositoryClass }) => ({
  key: row.key,
  rclass: row.rclass,
});

const byKey = (key: string) => sql<boolean>`lower(key) = ${key.toLowerCase()}`;

/** The package type must exist and allow this kind of repository (spec 03 §3 catalogue). */
function checkPackageType(config: RepositoryConfig, catalogue: Catalogue): void {
  const allowed = catalogue.allowedRepoTypes(config.packageType);
  if (!allowed)
    throw new BadRequest(REPO_MESSAGES.unknownPackageType(config.packageType), 'packageType');
  if (!allowed.includes(config.rclass)) {
    throw new BadRequest(REPO_MESSAGES.kindNotAllowed(config.packageType, config.rclass), 'rclass');
  }
}

export function createRepositoriesService(
  db: Database,
  catalogue: Catalogue,
  /** The key rules of the repository entity schema (key-rules.ts). */
  checkKeyRules: KeyRulesCheck,
  changes?: TableChanges,
  secrets?: SecretBox,
  /** Whether an admin added a layout of this name (the schema engine keeps them). */
  customLayoutExists: (name: string) => Promise<boolean> = async () => false,
  /** Whether an admin configured a proxy of this key (the schema engine keeps them). */
  proxyExists: (key: string) => Promise<boolean> = async () => false,
) {
  // Every artifact request reads its repository: keep rows briefly, drop them on any write.
  const rows = createReadCache<string, Row | undefined>({ ttlMs: 5000, maxEntries: 10000 });
  changes?.onChange(['repositories'], rows.clear);
  // Every search, tree root and repository list reads them all: the same, in one entry.
  const allRows = createReadCache<'all', readonly Row[]>({ ttlMs: 5000, maxEntries: 1 });
  changes?.onChange(['repositories'], allRows.clear);

  async function listRows(): Promise<readonly Row[]> {
    const load = async () => deepFreeze(await selectRepositories(db).orderBy('key').execute());
    return changes ? allRows.get('all', load) : load();
  }

  async function findRow(key: string) {
    if (!changes) return selectRepositories(db).where(byKey(key)).executeTakeFirst();
    return rows.get(key.toLowerCase(), async () =>
      deepFreeze(await selectRepositories(db).where(byKey(key)).executeTakeFirst()),
    );
  }

  /** The row `findRow` would answer from memory right now, if it has it (see ReadCache.peek). */
  const peekRow = (key: string) => (changes ? rows.peek(key.toLowerCase()) : undefined);

  /**
   * Virtual repositories aggregate existing local and remote ones, never themselves; `pending`
   * holds the repositories created with it in one call, which count as existing.
   */
  async function checkVirtualMembers(
    config: RepositoryConfig,
    pending: ReadonlyMap<string, RepositoryConfig> = new Map(),
  ) {
    if (config.rclass !== 'virtual') return;
    const kindOf = async (key: string) =>
      pending.get(key.toLowerCase()) ?? (await findRow(key).then((row) => row && toKind(row)));
    for (const member of config.repositories ?? []) {
      const found = await kindOf(member);
      if (!found) throw new BadRequest(REPO_MESSAGES.unknownMember(member), 'repositories');
      if (found.key.toLowerCase() === config.key.toLowerCase()) {
        throw new BadRequest(REPO_MESSAGES.selfMember, 'repositories');
      }
    }
    const target = config.defaultDeploymentRepo;
    if (target) {
      const found = await kindOf(target);
      if (found?.rclass !== 'local' || !(config.repositories ?? []).includes(found.key)) {
        throw new BadRequest(REPO_MESSAGES.badDeploymentRepo(target), 'defaultDeploymentRepo');
      }
    }
  }

  /** A layout a repository names must exist: built in, or one an admin added. */
  const checkProject = (key: string, projectKey: string) => checkProjectOf(db, key, projectKey);

  async function checkLayout(config: RepositoryConfig) {
    const name = config.repoLayoutRef;
    if (!name || catalogue.layout(name)) return;
    if (!(await customLayoutExists(name)))
      throw new BadRequest(REPO_MESSAGES.unknownLayout(name), 'repoLayoutRef');
  }

  /** A proxy a remote repository names must exist (docs/proxies.md). */
  async function checkProxy(config: RepositoryConfig) {
    if (config.rclass !== 'remote' || !config.proxy) return;
    if (!(await proxyExists(config.proxy)))
      throw new BadRequest(PROXY_MESSAGES.notConfigured(config.proxy), 'proxy');
  }

  function toRow(config: RepositoryConfig, storedPassword?: unknown) {
    const kindConfig = Object.fromEntries(
      KIND_FIELDS[config.rclass]
        .map((field) => [field, config[field]])
        .filter(([, v]) => v !== undefined),
    );
    if (config.rclass === 'remote') sealPassword(kindConfig, storedPassword, secrets);
    return {
      key: config.key,
      rclass: config.rclass,
      package_type: config.packageType,
      description: config.description ?? '',
      notes: config.notes ?? '',
      includes_pattern: config.includesPattern || '**/*',
      excludes_pattern: config.excludesPattern ?? '',
      repo_layout_ref:
        config.repoLayoutRef ||
        catalogue.defaultLayout(config.packageType)?.name ||
        'simple-default',
      config: JSON.stringify(kindConfig),
    };
  }

  /** The rules of a new repository's own configuration, before its key is looked up. */
  async function checkNew(config: RepositoryConfig, options: { systemType?: boolean }) {
    checkKeyRules(config);
    if (!options.systemType) checkPackageType(config, catalogue);
    checkEnvironments(config);
    await checkLayout(config);
    checkUpstreamUrl(config);
    await checkProxy(config);
  }

  /** Which of these keys exist already, whatever their case, as stored. */
  async function existingKeys(keys: string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const rows = await db
      .selectFrom('repositories')
      .select('key')
      .where(
        sql<string>`lower(key)`,
        'in',
        keys.map((key) => key.toLowerCase()),
      )
      .orderBy('key')
      .execute();
    return rows.map((row) => row.key);
  }

  /** One statement inserts them all, in one transaction with what goes with them. */
  async function insertAll(
    configs: RepositoryConfig[],
    alsoInTransaction?: (tx: Database) => Promise<void>,
  ) {
    const rows = configs.map((config) => toRow(config));
    try {
      if (!alsoInTransaction) {
        await db.insertInto('repositories').values(rows).execute();
        return;
      }
      await db.transaction().execute(async (tx) => {
        await tx.insertInto('repositories').values(rows).execute();
        await alsoInTransaction(tx);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Another request took one of the keys between the check and the insert.
      const clashes = await existingKeys(configs.map((config) => config.key));
      throw new Conflict(
        clashes.length > 0
          ? REPO_MESSAGES.existAll(clashes)
          : REPO_MESSAGES.exists(configs[0]!.key),
        'key',
      );
    }
  }

  return {
    peekRow,

    async list(filter: { rclass?: RepositoryClass; packageType?: string } = {}) {
      const packageType = filter.packageType?.toLowerCase();
      return (await listRows())
        .filter((row) => !filter.rclass || row.rclass === filter.rclass)
        .filter((row) => !packageType || row.package_type === packageType)
        .map(toRepositoryConfig);
    },

    async get(key: string): Promise<RepositoryConfig> {
      const row = await findRow(key);
      if (!row) throw new NotFound(REPO_MESSAGES.notFound(key));
      return toRepositoryConfig(row);
    },

    /** The rules a new key must pass, asked before saving (the console's validatereponame). */
    async checkNewKey(
      config: Pick<RepositoryConfig, 'key' | 'rclass' | 'packageType' | 'projectKey'>,
    ) {
      checkKeyRules(config);
      if (config.projectKey) await checkProject(config.key, config.projectKey);
      if (await findRow(config.key)) throw new Conflict(REPO_MESSAGES.exists(config.key), 'key');
    },

    /** Files and bytes stored in each repository (by key), in one grouped query. */
    async usage(): Promise<Map<string, { filesCount: number; usedSpace: number }>> {
      const rows = await db
        .selectFrom('nodes')
        .innerJoin('repositories', 'repositories.id', 'nodes.repository_id')
        .select([
          'repositories.key',
          sql<string>`count(*)`.as('files'),
          sql<string>`coalesce(sum(nodes.size), 0)`.as('bytes'),
        ])
        .where('nodes.folder', '=', false)
        .groupBy('repositories.key')
        .execute();
      return new Map(
        rows.map((r) => [r.key, { filesCount: Number(r.files), usedSpace: Number(r.bytes) }]),
      );
    },

    /** The stored row, for the storage layer (id and patterns). */
    /** The keys of the repositories that use a layout, in order. */
    async keysUsingLayout(name: string): Promise<string[]> {
      const rows = await db
        .selectFrom('repositories')
        .select('key')
        .where('repo_layout_ref', '=', name)
        .orderBy('key')
        .execute();
      return rows.map((row) => row.key);
    },

    async findRow(key: string) {
      return findRow(key);
    },

    /**
     * Creates a repository. `systemType` is for Depot's own repositories of a type no one may
     * create by hand (a build-info repository, made at a build's first upload).
     */
    async create(
      config: RepositoryConfig,
      options: { systemType?: boolean } = {},
    ): Promise<RepositoryConfig> {
      config = { ...config, packageType: config.packageType.toLowerCase() };
      await checkNew(config, options);
      if (await findRow(config.key)) throw new Conflict(REPO_MESSAGES.exists(config.key), 'key');
      await checkVirtualMembers(config);
      if (config.projectKey) await checkProject(config.key, config.projectKey);
      await insertAll([config]);
      return this.get(config.key);
    },

    /**
     * Creates several repositories at once, all or none, each through the rules `create`
     * applies: virtual ones may aggregate the others of the call. A key that exists already
     * refuses the call, naming every such key. `alsoInTransaction` writes what belongs with
     * them (the onboarding state) in the same transaction.
     */
    async createAll(
      configs: RepositoryConfig[],
      alsoInTransaction?: (tx: Database) => Promise<void>,
    ): Promise<RepositoryConfig[]> {
      const all = configs.map((c) => ({ ...c, packageType: c.packageType.toLowerCase() }));
      const pending = new Map<string, RepositoryConfig>();
      for (const config of all) {
        if (pending.has(config.key.toLowerCase()))
          throw new Conflict(REPO_MESSAGES.exists(config.key), 'key');
        pending.set(config.key.toLowerCase(), config);
      }
      const clashes = await existingKeys(all.map((config) => config.key));
      if (clashes.length > 0) throw new Conflict(REPO_MESSAGES.existAll(clashes), 'key');
      for (const config of all) {
        await checkNew(config, {});
        await checkVirtualMembers(config, pending);
        if (config.projectKey) await checkProject(config.key, config.projectKey);
      }
      await insertAll(all, alsoInTransaction);
      return Promise.all(all.map((config) => this.get(config.key)));
    },

    /** Updates the fields given; the key and the kind of a repository never change. */
    async update(key: string, change: Partial<RepositoryConfig>): Promise<RepositoryConfig> {
      const current = await this.get(key);
      if (change.key !== undefined && change.key.toLowerCase() !== key.toLowerCase()) {
        throw new BadRequest(REPO_MESSAGES.keyChange, 'key');
      }
      if (change.rclass !== undefined && change.rclass !== current.rclass) {
        throw new BadRequest(REPO_MESSAGES.kindChange, 'rclass');
      }
      const next = { ...current, ...change, key: current.key, rclass: current.rclass };
      next.packageType = next.packageType.toLowerCase();
      checkKeyRules(next);
      checkPackageType(next, catalogue);
      checkEnvironments(next);
      await checkLayout(next);
      checkUpstreamUrl(next);
      await checkProxy(next);
      await checkVirtualMembers(next);
      const storedPassword = (await findRow(key))?.config.password;
      checkPasswordDestination(current, change, storedPassword);
      await db
        .updateTable('repositories')
        .set({ ...toRow(next, storedPassword), updated_at: new Date() })
        .where(byKey(key))
        .execute();
      return this.get(key);
    },

    /**
     * Deletes a repository with all its content rows; blobs wait for garbage collection.
     * `user` is who did it, named in the events of the builds that go with a build-info one.
     */
    async delete(key: string, user: string): Promise<void> {
      const row = await findRow(key);
      if (!row) throw new NotFound(REPO_MESSAGES.notFound(key));
      await db.transaction().execute(async (tx) => {
        await dropBuildsOf(tx, { repositoryKey: row.key, path: '' }, user);
        await tx.deleteFrom('nodes').where('repository_id', '=', row.id).execute();
        await tx.deleteFrom('repositories').where('id', '=', row.id).execute();
      });
    },
  };
}

export type RepositoriesService = ReturnType<typeof createRepositoriesService>;
