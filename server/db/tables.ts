import type { ColumnType, Generated } from 'kysely';

/** Row types of every table, as Kysely sees them. Migrations in ./migrations create them. */
export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string | null;
  admin: boolean;
  profile_updatable: boolean;
  disable_ui_access: boolean;
  internal_password_disabled: boolean;
  realm: string;
  password_expired: boolean;
  last_logged_in: Date | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
  mfa_secret: string | null;
  mfa_pending_secret: string | null;
  /** bigint: the driver reads it as a string. */
  mfa_last_step: ColumnType<string | null, number | null, number | null>;
  password_changed_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ProjectsTable {
  key: string;
  display_name: string;
  description: string;
  /** bigint: the driver reads it as a string. */
  storage_quota_bytes: ColumnType<string | null, number | null, number | null>;
  manage_members: boolean;
  manage_resources: boolean;
  index_resources: boolean;
  created_at: ColumnType<Date, never, never>;
}

export interface ProjectRolesTable {
  project_key: string;
  name: string;
  description: string;
  actions: ColumnType<string[], string, string>;
  environments: ColumnType<string[], string, string>;
}

export interface ProjectMembersTable {
  project_key: string;
  kind: 'user' | 'group';
  name: string;
  roles: ColumnType<string[], string, string>;
}

/** A package of a repository (migration 0019). */
export interface PackagesTable {
  id: Generated<number>;
  repository_id: number;
  package_type: string;
  name: string;
  tags: ColumnType<Record<string, string>, string | undefined, string>;
  created_at: ColumnType<Date, Date | undefined, Date>;
  modified_at: ColumnType<Date, Date | undefined, Date>;
}

/** A version of a package, indexed from one file (node_id) of its repository. */
export interface PackageVersionsTable {
  id: Generated<number>;
  package_id: number;
  version: string;
  node_id: number;
  manifest: string;
  abbreviated: string | null;
  description: string;
  readme: string | null;
  readme_filename: string | null;
  created_at: ColumnType<Date, Date | undefined, Date>;
  created_by: string;
}

/** Files inside a Java archive, listed at deploy for the class search (migration 0020). */
export interface ArchiveEntriesTable {
  node_id: number;
  entry_path: string;
  entry_name: string;
}

export interface UserTokensTable {
  key_sha256: string;
  user_id: number;
  purpose: 'reset' | 'invite';
  expires_at: Date;
  used_at: Date | null;
  created_at: ColumnType<Date, never, never>;
}

export interface PasswordHistoryTable {
  id: Generated<number>;
  user_id: number;
  password_hash: string;
  created_at: ColumnType<Date, never, never>;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  description: string;
  auto_join: boolean;
  admin_privileges: boolean;
  realm: string;
  created_at: ColumnType<Date, never, never>;
}

export interface UserGroupsTable {
  user_id: number;
  group_id: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a leaked table does not hand out sessions. */
  id: string;
  user_id: number;
  csrf_token: string;
  expires_at: Date;
  last_seen_at: Date;
  created_at: ColumnType<Date, never, never>;
}

export interface SettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
}

export interface RepositoriesTable {
  id: Generated<number>;
  key: string;
  rclass: 'local' | 'remote' | 'virtual';
  package_type: string;
  description: string;
  notes: string;
  includes_pattern: string;
  excludes_pattern: string;
  repo_layout_ref: string;
  config: ColumnType<Record<string, unknown>, string, string>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

export interface BlobsTable {
  sha256: string;
  sha1: string;
  md5: string | null;
  /** Filled when the content arrived under a `sha512:` digest (migration 0042). */
  sha512: ColumnType<string | null, string | null | undefined, string | null>;
  size: number;
  created_at: ColumnType<Date, never, never>;
  touched_at: ColumnType<Date, Date | undefined, Date>;
  /** The transaction that last wrote the row, set by a trigger (migration 0061). */
  written_xid: ColumnType<string | null, never, never>;
}

export interface NodesTable {
  id: Generated<number>;
  repository_id: number;
  path: string;
  parent_path: string;
  name: string;
  folder: boolean;
  sha256: string | null;
  size: number;
  mime_type: string | null;
  created_at: ColumnType<Date, Date | undefined, Date>;
  created_by: string;
  modified_at: ColumnType<Date, Date | undefined, Date>;
  modified_by: string;
}

export interface NodePropertiesTable {
  node_id: number;
  key: string;
  value: string;
}

/** Properties of a repository's root (migration 0022). */
export interface RepositoryPropertiesTable {
  repository_id: number;
  key: string;
  value: string;
}

export interface RemoteMissesTable {
  repository_id: number;
  path: string;
  expires_at: Date;
  created_at: ColumnType<Date, never, never>;
}

export interface JobRunsTable {
  id: Generated<number>;
  job: string;
  trigger: 'cron' | 'manual';
  started_at: ColumnType<Date, Date | undefined, never>;
  finished_at: Date | null;
  outcome: 'running' | 'success' | 'failure';
  info: string;
}

export interface DownloadStatsTable {
  node_id: number;
  download_count: number;
  last_downloaded: Date;
  last_downloaded_by: string;
}

export interface RemoteCacheEntriesTable {
  node_id: number;
  /** When the upstream last confirmed (or supplied) this cached file. */
  checked_at: Date;
  etag: string | null;
  last_modified: string | null;
}

export interface RemoteUpstreamStateTable {
  repository_id: number;
  /** After a connection error the upstream is not asked again until then. */
  offline_until: Date;
  reason: string;
}

export interface WatchesTable {
  id: Generated<number>;
  repository_id: number;
  /** '' watches the whole repository. */
  path: string;
  username: string;
  created_at: ColumnType<Date, never, never>;
}

/** A permission target's sections, Artifactory's v2 JSON (server/modules/access-control). */
export interface PermissionTargetsTable {
  name: string;
  repo: ColumnType<PermissionSectionJson | null, string | null, string | null>;
  build: ColumnType<PermissionSectionJson | null, string | null, string | null>;
  release_bundle: ColumnType<PermissionSectionJson | null, string | null, string | null>;
  destination: ColumnType<DestinationSectionJson | null, string | null, string | null>;
  pipeline_source: ColumnType<PipelineSectionJson | null, string | null, string | null>;
  xray_source: ColumnType<XraySectionJson | null, string | null, string | null>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

/** Who a permission target names, for reading only a principal's targets. */
export interface PermissionTargetPrincipalsTable {
  kind: 'users' | 'groups';
  principal: string;
  target_name: string;
}

export interface PermissionActionsJson {
  users: Record<string, string[]>;
  groups: Record<string, string[]>;
}

export interface PermissionSectionJson {
  'include-patterns': string[];
  'exclude-patterns': string[];
  repositories: string[];
  actions: PermissionActionsJson;
}

/** Spec 01 §3 destinations: rules of site, city and countries; `*` stands for all. */
export interface DestinationRuleJson {
  siteName: string;
  cityName: string;
  countryCodes: string[];
}
export interface DestinationSectionJson {
  destinationRules: DestinationRuleJson[];
  actions: PermissionActionsJson;
}

/** Spec 01 §3 pipeline sources, chosen by Ant patterns over their names. */
export interface PipelineSectionJson {
  'include-patterns': string[];
  'exclude-patterns': string[];
  actions: PermissionActionsJson;
}

/** Spec 01 §3 Xray sources: the targets named. */
export interface XraySectionJson {
  targets: string[];
  actions: PermissionActionsJson;
}

export interface AccessTokensTable {
  /** The JWT's `jti`. */
  id: string;
  /** The user name the token acts as. */
  subject: string;
  /** The user it was issued for, when its subject named one (migration 0023); its deletion deletes the token. */
  user_id: number | null;
  /** `applied-permissions/user`, `applied-permissions/admin` or `applied-permissions/groups:a,b`. */
  scope: string;
  description: ColumnType<string, string | undefined, string>;
  issued_by: string;
  expires_at: Date | null;
  revoked_at: ColumnType<Date | null, never, Date | null>;
  last_used_at: ColumnType<Date | null, never, Date | null>;
  created_at: ColumnType<Date, never, never>;
}

/** Failed sign-ins of an account from one address, and its temporary lock (migration 0024). */
export interface SignInLocksTable {
  /** The name signed in with, lower-cased; no user need have it. */
  account: string;
  address: string;
  failures: number;
  locks: number;
  locked_until: Date | null;
  last_failure_at: Date;
}

export interface ApiKeysTable {
  user_id: number;
  key_sha256: string;
  key_sealed: string;
  created_at: ColumnType<Date, never, never>;
}

/** A document of an entity the schema engine stores (migration 0025, server/modules/entities). */
export interface EntityDocumentsTable {
  entity: string;
  /** The key as uniqueness compares it: lower-cased when the entity's keys ignore case. */
  match_key: string;
  key: string;
  /** Written as JSON text, read back parsed; secrets in it are sealed. */
  document: ColumnType<Record<string, unknown>, string, string>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

/** One change of an engine-stored document: who, when, what (secrets masked). */
export interface EntityAuditTable {
  id: Generated<string>;
  entity: string;
  key: string;
  action: 'create' | 'update' | 'delete';
  actor: string;
  at: ColumnType<Date, never, never>;
  changes: ColumnType<Record<string, unknown>, string, never>;
}

/** A manifest stored in a Docker repository's tree, as the registry protocol sees it (migration 0026). */
export interface DockerManifestsTable {
  repository_id: number;
  image: string;
  /** `sha256:<hex>`. */
  digest: string;
  media_type: string;
  artifact_type: string | null;
  /** The digest of the manifest it refers to (OCI 1.1 `subject`), for the referrers API. */
  subject: string | null;
  /** Its annotations as JSON text, answered in the referrers list. */
  annotations: string | null;
  size: number;
  created_at: ColumnType<Date, never, never>;
}

/** A blob upload in progress; its bytes are a file in the filestore's upload area. */
export interface DockerUploadsTable {
  id: string;
  repository_id: number;
  image: string;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** Events written with the change they report (migration 0027, docs/webhooks.md). */
export interface EventOutboxTable {
  id: Generated<string>;
  domain: string;
  event_type: string;
  repo_key: string | null;
  target_repo_key: string | null;
  path: string | null;
  data: ColumnType<Record<string, unknown>, string, never>;
  source: string;
  created_at: ColumnType<Date, never, never>;
  fanned_out: Generated<boolean>;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  delivery_id: string;
  subscription_key: string;
  event_id: string | null;
  domain: string;
  event_type: string;
  payload: ColumnType<Record<string, unknown>, string, never>;
  state: Generated<'pending' | 'delivered' | 'failed' | 'cancelled'>;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  lease_until: ColumnType<Date | null, never, Date | null>;
  first_failed_at: ColumnType<Date | null, never, Date | null>;
  last_status: number | null;
  last_error: string | null;
  created_at: ColumnType<Date, never, never>;
  finished_at: ColumnType<Date | null, never, Date | null>;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  delivery: string;
  attempted_at: ColumnType<Date, never, never>;
  outcome: 'delivered' | 'failed' | 'retry';
  status: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

export interface WebhookPausesTable {
  subscription_key: string;
  paused_at: ColumnType<Date, never, never>;
  reason: string;
}

export interface DepotDatabase {
  docker_manifests: DockerManifestsTable;
  docker_uploads: DockerUploadsTable;
  users: UsersTable;
  groups: GroupsTable;
  user_groups: UserGroupsTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  repositories: RepositoriesTable;
  blobs: BlobsTable;
  nodes: NodesTable;
  node_properties: NodePropertiesTable;
  repository_properties: RepositoryPropertiesTable;
  remote_misses: RemoteMissesTable;
  remote_cache_entries: RemoteCacheEntriesTable;
  remote_upstream_state: RemoteUpstreamStateTable;
  job_runs: JobRunsTable;
  download_stats: DownloadStatsTable;
  watches: WatchesTable;
  entity_documents: EntityDocumentsTable;
  entity_audit: EntityAuditTable;
  permission_targets: PermissionTargetsTable;
  permission_target_principals: PermissionTargetPrincipalsTable;
  access_tokens: AccessTokensTable;
  api_keys: ApiKeysTable;
  sign_in_locks: SignInLocksTable;
  password_history: PasswordHistoryTable;
  user_tokens: UserTokensTable;
  projects: ProjectsTable;
  project_roles: ProjectRolesTable;
  project_members: ProjectMembersTable;
  packages: PackagesTable;
  package_versions: PackageVersionsTable;
  archive_entries: ArchiveEntriesTable;
  npm_stars: NpmStarsTable;
  builds: BuildsTable;
  latest_builds: LatestBuildsTable;
  build_files: BuildFilesTable;
  build_properties: BuildPropertiesTable;
  build_promotions: BuildPromotionsTable;
  event_outbox: EventOutboxTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_pauses: WebhookPausesTable;
  cluster_nodes: ClusterNodesTable;
  retention_executions: RetentionExecutionsTable;
  retention_items: RetentionItemsTable;
  support_bundles: SupportBundlesTable;
  support_bundle_parts: SupportBundlePartsTable;
}

/**
 * A support bundle (migration 0039): its zip is the artifact `supportBundles/<id>/<id>.zip`.
 */
export interface SupportBundlesTable {
  id: string;
  name: string;
  description: Generated<string>;
  /** in progress, success or failed. */
  status: string;
  /** Percent done while in progress. */
  progress: Generated<number>;
  size: ColumnType<string | null, number | null, number | null>;
  error: string | null;
  node_id: string;
  created_by: string;
  created_at: Generated<Date>;
}

/** One Depot process of the cluster (migration 0032, docs/service-status.md). */
export interface ClusterNodesTable {
  id: string;
  host: string;
  version: string;
  started_at: Date;
  last_heartbeat: Date;
  heartbeat_seconds: number;
  /** What the node measured at its last heartbeat: component name to a spec status. */
  health: ColumnType<Record<string, string>, string, string>;
}

export interface NpmStarsTable {
  repository_id: number;
  name: string;
  user_id: number;
  created_at: Generated<Date>;
}

/** A build: one build-info JSON file of a build-info repository (docs/builds.md). */
export interface BuildsTable {
  id: Generated<number>;
  node_id: number;
  repository_key: string;
  project_key: string | null;
  name: string;
  number: string;
  started: string;
  started_at: Date;
  path: string;
  /** Written as JSON text, read back parsed. */
  document: ColumnType<Record<string, unknown>, string, string>;
  created_at: ColumnType<Date, never, never>;
  created_by: string;
}

/**
 * Each build-info repository's names with the columns of their newest build (migration 0050),
 * kept by a trigger on `builds`: the builds list reads one row a name.
 */
export interface LatestBuildsTable {
  repository_key: string;
  name: string;
  id: number;
  node_id: number;
  project_key: string | null;
  number: string;
  started: string;
  started_at: Date;
  path: string;
}

/** A module's artifact or dependency, by checksum: how items find their builds. */
export interface BuildFilesTable {
  build_id: number;
  module_id: string;
  /** The module's index in the document's `modules` (migration 0054). */
  module_position: number;
  kind: 'artifact' | 'dependency';
  /** The entry's index in its module's `artifacts` or `dependencies` (migration 0054). */
  position: number;
  name: string;
  type: string | null;
  scopes: string | null;
  sha1: string | null;
  sha256: string | null;
  md5: string | null;
  /** The SHA-256 of the stored content with this row's SHA-1, kept by triggers (migration 0060). */
  content_by_sha1: string | null;
}

/** A build's properties flattened, in the document's order (migration 0054, kept by a trigger). */
export interface BuildPropertiesTable {
  build_id: number;
  position: number;
  key: string;
  value: string;
}

/** One promotion of a build: the release history. */
export interface BuildPromotionsTable {
  id: Generated<number>;
  build_id: number;
  status: string;
  comment: string;
  repository: string | null;
  ci_user: string | null;
  user_name: string;
  timestamp: ColumnType<Date, Date | undefined, never>;
}

/** One retention run, restore or undo (migration 0040, docs/retention.md). */
export interface RetentionExecutionsTable {
  id: Generated<number>;
  kind: 'archive' | 'restore';
  policy_key: string | null;
  action: 'archive' | 'delete' | 'undo' | null;
  state: string;
  /** A queued (PENDING) run's start is set again when it starts. */
  started_at: ColumnType<Date, Date | undefined, Date>;
  finished_at: Date | null;
  started_by: string;
  items: ColumnType<number, number | undefined, number>;
  bytes: ColumnType<string | number, number | undefined, number>;
  freed_bytes: ColumnType<string | number, number | undefined, number>;
  errors: ColumnType<number, number | undefined, number>;
  message: ColumnType<string, string | undefined, string>;
  undone_at: Date | null;
}

/** An item a retention run took out of its repository (migration 0040). */
export interface RetentionItemsTable {
  id: Generated<number>;
  execution_id: number;
  action: 'archive' | 'delete';
  repo_key: string;
  path: string;
  name: string;
  sha256: string;
  sha1: string;
  md5: string | null;
  size: ColumnType<string | number, number, number>;
  mime_type: string | null;
  properties: ColumnType<Record<string, string[]>, string, string>;
  item_created_at: Date;
  item_created_by: string;
  archived_at: ColumnType<Date, Date | undefined, never>;
  restored_at: Date | null;
  cold_released: ColumnType<boolean, boolean | undefined, boolean>;
}

/**
 * One node's part of a support bundle (migration 0049): asked by the node making the bundle,
 * answered by the node named, whose files wait under the filestore's `_support/<bundle_id>/`.
 */
export interface SupportBundlePartsTable {
  bundle_id: string;
  node_id: string;
  /** The first day of the logs wanted (YYYY-MM-DD). */
  log_from: string;
  /** requested, collecting, ready or failed. */
  status: string;
  /** The files written, as `{name, file}`: their name in the bundle and under `_support`. */
  entries: ColumnType<Array<{ name: string; file: string }>, string | undefined, string>;
  error: string | null;
  requested_at: Generated<Date>;
}
