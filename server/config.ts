import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { isUsablePasswordHash } from './modules/auth/password.ts';

/** Everything the server reads from its environment, with the embedded-mode defaults. */
/** How large and how many folder downloads may be (docs/archives.md). */
export interface FolderDownloadLimits {
  maxConcurrent: number;
  maxSizeMb: number;
  maxFiles: number;
}

export interface DepotConfig {
  /** Where the embedded database, logs and (later) the filestore live. */
  home: string;
  port: number;
  host: string;
  /** A PostgreSQL URL; when absent the embedded PGlite database under `home/db` is used. */
  databaseUrl: string | undefined;
  /** When set, the first start gives admin this password, not expired (for automation). */
  adminPassword: string | undefined;
  /**
   * The same given as the password's scrypt hash (`npm run password:hash`), so that the
   * password itself is in no environment, process listing or deployment file.
   */
  adminPasswordHash: string | undefined;
  serverName: string;
  logLevel: string;
  /** Whether pino also writes to stdout (tests turn it off to keep output readable). */
  logToStdout: boolean;
  /** The built console, served under /ui/. */
  uiDir: string;
  /**
   * The entity schemas and screen descriptors (`entities/`, `screens/`): the project's
   * `schemas/` unless DEPOT_SCHEMAS_DIR names another copy (a product owner's checkout, a test's).
   */
  schemasDir: string | undefined;
  /** Where binaries live; `home/filestore` unless DEPOT_FILESTORE_DIR puts them elsewhere. */
  filestoreDir: string;
  /**
   * The instance master key (64 hex characters) from DEPOT_MASTER_KEY; when absent it is read
   * from, or generated into, `home/security/master.key`.
   */
  masterKey: string | undefined;
  /**
   * Limits of folder downloads as archives set in the environment: each one set overrides
   * the general configuration's value (docs/general-config.md, docs/archives.md).
   */
  folderDownload: Partial<FolderDownloadLimits>;
  /**
   * Limits of exploding a deployed archive (X-Explode-Archive), against archive bombs; an
   * atomic one (X-Explode-Archive-Atomic) is one transaction, and holds fewer entries.
   */
  archiveDeploy: {
    maxEntries: number;
    maxSizeMb: number;
    maxRatio: number;
    maxAtomicEntries: number;
  };
  /** Bounds on one AQL query (docs/search.md): its size in bytes and its comparisons. */
  aql: { maxBytes: number; maxCriteria: number };
  /** The largest build-info document `PUT /artifactory/api/build` takes, in MB (docs/builds.md). */
  buildInfoMaxMb: number;
  /**
   * Garbage collection and pruning leave binaries younger than this alone (seconds), so
   * content being uploaded or re-deployed right now is never collected.
   */
  gcGraceSeconds: number;
  /**
   * The directories backups and system exports may write to and imports may read from
   * (DEPOT_BACKUP_DIRS, comma-separated absolute paths; `home/backup` by default). Every
   * path a request names must resolve inside one of them (docs/backup.md).
   */
  backupDirs: string[];
  /**
   * Retention's cold store (docs/retention.md): where archived items' bytes go, on a volume of
   * its own; `home/coldstore` unless DEPOT_COLD_STORE_DIR puts it elsewhere.
   */
  coldStoreDir: string;
  /**
   * The most bytes a second retention copies into the cold store (DEPOT_COLD_STORE_KB_PER_SECOND
   * in KiB, 0 for no limit), so that a run does not saturate the archive's volume or link.
   */
  coldStoreBytesPerSecond: number;
  /** How long after a retention run it can be undone, in hours (DEPOT_RETENTION_UNDO_HOURS). */
  retentionUndoHours: number;
  /**
   * On SIGTERM or SIGINT, how long requests in flight may take to finish (seconds) before
   * they are aborted and the database closes (docs/security.md, "Nothing acknowledged is lost").
   */
  shutdownGraceSeconds: number;
  /**
   * Proxies (addresses or CIDRs, DEPOT_TRUSTED_PROXIES, comma-separated) whose
   * X-Forwarded-For/Proto/Host are believed. None by default: a client could otherwise
   * claim any address and slip past the sign-in throttle.
   */
  trustedProxies: string[];
  /**
   * The origin of DEPOT_PUBLIC_URL, the address users' browsers reach Depot at: accepted as
   * Depot's own for the cross-site rule (docs/security.md) besides the request's own host,
   * for a proxy that neither passes the Host header on nor is trusted to send X-Forwarded-Host.
   */
  publicOrigin: string | undefined;
  /**
   * How slowly a client may send a request (docs/security.md, "Slow requests"): its headers
   * within DEPOT_REQUEST_HEADERS_TIMEOUT_SECONDS (30), its body at
   * DEPOT_REQUEST_BODY_MIN_BYTES_PER_SECOND (1024) or more, averaged over each
   * DEPOT_REQUEST_BODY_RATE_WINDOW_SECONDS (30).
   */
  requestLimits: {
    headersTimeoutSeconds: number;
    body: { minBytesPerSecond: number; windowSeconds: number };
  };
  /** How many projects may exist (DEPOT_PROJECTS_LIMIT, 300 by default). */
  projectsLimit: number;
  /**
   * How long npm clients may reuse a package document without asking again
   * (DEPOT_NPM_METADATA_MAX_AGE, seconds, 60 by default; 0 makes them revalidate each time).
   */
  npmMetadataMaxAgeSeconds: number;
  /**
   * Users whose sign-in locks are lifted at start (DEPOT_UNLOCK_USERS, comma-separated
   * names): the way back in when every administrator is locked (docs/security.md).
   */
  unlockUsers: string[];
  /**
   * Development: reload `schemas/` when a file in it changes (DEPOT_SCHEMAS_RELOAD=true;
   * `npm run dev:server` sets it), so an edited descriptor shows without a restart.
   */
  schemasReload: boolean;
  /**
   * Whether `GET /artifactory/api/v1/metrics` collects and answers (DEPOT_METRICS, on unless
   * `false`): off, no request pays for counting (docs/metrics.md).
   */
  metrics: boolean;
  /**
   * Whether the metrics time every garbage collection too (DEPOT_METRICS_GC=true; off by
   * default: subscribing to V8's collection events costs small requests measurably,
   * docs/metrics.md).
   */
  metricsGarbageCollection: boolean;
  /**
   * The Ed25519 public key license bucket files must be signed with (DEPOT_LICENSE_PUBLIC_KEY:
   * the PEM itself, or the path of a file holding it), as PEM; unset, buckets cannot be
   * added (docs/license-buckets.md).
   */
  licensePublicKey: string | undefined;
  /** The Docker registry's limits (docs/docker.md). */
  docker: {
    /** The largest blob one upload may build up, in bytes. */
    uploadMaxBytes: number;
    /** An upload untouched this long is abandoned and its bytes removed. */
    uploadExpirySeconds: number;
    /** How long a registry token from the token endpoint lives. */
    tokenSeconds: number;
  };
  /**
   * Webhook delivery (docs/webhooks.md): how often the outbox is looked at, one attempt's
   * timeout, the retries' first and longest delay, and how long a subscription may fail
   * before it is paused; how long finished deliveries and delivered events are kept.
   */
  /**
   * This process's name in the cluster (DEPOT_NODE_ID, the host's name by default): the log
   * lines it writes carry it, and the log viewer picks nodes by it.
   */
  nodeId: string;
  /** How often this node writes its heartbeat (DEPOT_HEARTBEAT_SECONDS, 10; docs/service-status.md). */
  heartbeatSeconds: number;
  /**
   * How long the node making a support bundle waits for the other live nodes' parts before it
   * goes without them (DEPOT_SUPPORT_BUNDLE_PART_WAIT_SECONDS, 60; docs/support-bundles.md).
   */
  supportBundlePartWaitSeconds: number;
  /**
   * The service, request and audit logs under `home/logs` (docs/logs.md): each is rotated when
   * it reaches DEPOT_LOG_MAX_FILE_KB (25600, 25 MiB), and DEPOT_LOG_MAX_FILES (10) rotated
   * files of each are kept beside the live one. The console's log viewer reads them again
   * every DEPOT_LOG_VIEWER_REFRESH_MS (10000).
   */
  logFiles: { maxFileBytes: number; maxRotatedFiles: number; viewerRefreshMs: number };
  /**
   * First-run onboarding (docs/onboarding.md): whether an admin's sign-in opens the quick
   * setup until it is done or skipped (DEPOT_QUICK_SETUP_ON_FIRST_LOGIN, on unless `false`;
   * off for provisioned instances), and the upstream URL its remote repositories start from,
   * per package type (DEPOT_QUICK_SETUP_UPSTREAMS: `type=url` pairs, comma-separated).
   */
  onboarding: { offerOnFirstLogin: boolean; upstreams: Record<string, string> };
  webhooks: {
    pollMs: number;
    timeoutMs: number;
    baseDelayMs: number;
    maxDelayMs: number;
    pauseAfterMs: number;
    retentionMs: number;
  };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** DEPOT_ADMIN_PASSWORD or DEPOT_ADMIN_PASSWORD_HASH, at most one, the hash one we can check. */
function adminPasswordFrom(env: NodeJS.ProcessEnv) {
  const adminPassword = env.DEPOT_ADMIN_PASSWORD || undefined;
  const adminPasswordHash = env.DEPOT_ADMIN_PASSWORD_HASH || undefined;
  if (adminPassword && adminPasswordHash) {
    throw new Error('set DEPOT_ADMIN_PASSWORD or DEPOT_ADMIN_PASSWORD_HASH, not both');
  }
  if (adminPasswordHash && !isUsablePasswordHash(adminPasswordHash)) {
    throw new Error(
      'DEPOT_ADMIN_PASSWORD_HASH must be a hash printed by `npm run password:hash` (scrypt$N$r$p$salt$key)',
    );
  }
  return { adminPassword, adminPasswordHash };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): DepotConfig {
  const port = Number(env.DEPOT_PORT ?? 8082);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`DEPOT_PORT must be a port number, got '${env.DEPOT_PORT}'`);
  }
  const logLevel = (env.DEPOT_LOG_LEVEL ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new Error(`DEPOT_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  // An empty DEPOT_HOME (a variable set from nothing in a script) is unset, not the cwd.
  const home = resolve(env.DEPOT_HOME || './var');
  return {
    home,
    port,
    host: env.DEPOT_HOST ?? '0.0.0.0',
    databaseUrl: env.DEPOT_DATABASE_URL || undefined,
    ...adminPasswordFrom(env),
    serverName: env.DEPOT_SERVER_NAME ?? 'Depot',
    logLevel,
    logToStdout: env.DEPOT_LOG_STDOUT !== 'false',
    uiDir: resolve(env.DEPOT_UI_DIR ?? 'dist/ui'),
    schemasDir: env.DEPOT_SCHEMAS_DIR ? resolve(env.DEPOT_SCHEMAS_DIR) : undefined,
    filestoreDir: resolve(env.DEPOT_FILESTORE_DIR || join(home, 'filestore')),
    masterKey: env.DEPOT_MASTER_KEY || undefined,
    folderDownload: definedOnly({
      maxConcurrent: optionalPositiveInteger(env, 'DEPOT_FOLDER_DOWNLOAD_MAX_CONCURRENT'),
      maxSizeMb: optionalPositiveInteger(env, 'DEPOT_FOLDER_DOWNLOAD_MAX_SIZE_MB'),
      maxFiles: optionalPositiveInteger(env, 'DEPOT_FOLDER_DOWNLOAD_MAX_FILES'),
    }),
    archiveDeploy: {
      maxEntries: positiveInteger(env, 'DEPOT_ARCHIVE_DEPLOY_MAX_ENTRIES', 10000),
      maxSizeMb: positiveInteger(env, 'DEPOT_ARCHIVE_DEPLOY_MAX_SIZE_MB', 1024),
      maxRatio: positiveInteger(env, 'DEPOT_ARCHIVE_DEPLOY_MAX_RATIO', 100),
      maxAtomicEntries: positiveInteger(env, 'DEPOT_ATOMIC_DEPLOY_MAX_ENTRIES', 1000),
    },
    aql: {
      maxBytes: positiveInteger(env, 'DEPOT_AQL_MAX_KB', 64) * 1024,
      maxCriteria: positiveInteger(env, 'DEPOT_AQL_MAX_CRITERIA', 100),
    },
    buildInfoMaxMb: positiveInteger(env, 'DEPOT_BUILD_INFO_MAX_MB', 16),
    // 0 (tests) and up; an hour when unset.
    gcGraceSeconds: wholeNumber(env, 'DEPOT_GC_GRACE_SECONDS', 3600),
    backupDirs: backupDirs(env.DEPOT_BACKUP_DIRS, home),
    coldStoreDir: resolve(env.DEPOT_COLD_STORE_DIR || join(home, 'coldstore')),
    coldStoreBytesPerSecond: wholeNumber(env, 'DEPOT_COLD_STORE_KB_PER_SECOND', 0) * 1024,
    retentionUndoHours: wholeNumber(env, 'DEPOT_RETENTION_UNDO_HOURS', 72),
    shutdownGraceSeconds: wholeNumber(env, 'DEPOT_SHUTDOWN_GRACE_SECONDS', 10),
    trustedProxies: trustedProxies(env.DEPOT_TRUSTED_PROXIES),
    publicOrigin: publicOrigin(env.DEPOT_PUBLIC_URL),
    requestLimits: {
      headersTimeoutSeconds: positiveInteger(env, 'DEPOT_REQUEST_HEADERS_TIMEOUT_SECONDS', 30),
      body: {
        minBytesPerSecond: positiveInteger(env, 'DEPOT_REQUEST_BODY_MIN_BYTES_PER_SECOND', 1024),
        windowSeconds: positiveInteger(env, 'DEPOT_REQUEST_BODY_RATE_WINDOW_SECONDS', 30),
      },
    },
    projectsLimit: positiveInteger(env, 'DEPOT_PROJECTS_LIMIT', 300),
    npmMetadataMaxAgeSeconds: wholeNumber(env, 'DEPOT_NPM_METADATA_MAX_AGE', 60),
    unlockUsers: (env.DEPOT_UNLOCK_USERS ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    schemasReload: env.DEPOT_SCHEMAS_RELOAD === 'true',
    metrics: env.DEPOT_METRICS !== 'false',
    metricsGarbageCollection: env.DEPOT_METRICS_GC === 'true',
    licensePublicKey: licensePublicKey(env.DEPOT_LICENSE_PUBLIC_KEY),
    docker: {
      uploadMaxBytes: positiveInteger(env, 'DEPOT_DOCKER_UPLOAD_MAX_MB', 20480) * 1024 * 1024,
      uploadExpirySeconds: positiveInteger(env, 'DEPOT_DOCKER_UPLOAD_EXPIRY_SECONDS', 86400),
      tokenSeconds: positiveInteger(env, 'DEPOT_DOCKER_TOKEN_SECONDS', 300),
    },
    nodeId: nodeId(env.DEPOT_NODE_ID),
    heartbeatSeconds: positiveInteger(env, 'DEPOT_HEARTBEAT_SECONDS', 10),
    supportBundlePartWaitSeconds: positiveInteger(
      env,
      'DEPOT_SUPPORT_BUNDLE_PART_WAIT_SECONDS',
      60,
    ),
    logFiles: {
      maxFileBytes: positiveInteger(env, 'DEPOT_LOG_MAX_FILE_KB', 25600) * 1024,
      maxRotatedFiles: wholeNumber(env, 'DEPOT_LOG_MAX_FILES', 10),
      viewerRefreshMs: positiveInteger(env, 'DEPOT_LOG_VIEWER_REFRESH_MS', 10000),
    },
    onboarding: {
      offerOnFirstLogin: env.DEPOT_QUICK_SETUP_ON_FIRST_LOGIN !== 'false',
      upstreams: quickSetupUpstreams(env.DEPOT_QUICK_SETUP_UPSTREAMS),
    },
    webhooks: {
      pollMs: positiveInteger(env, 'DEPOT_WEBHOOK_POLL_MS', 1000),
      timeoutMs: positiveInteger(env, 'DEPOT_WEBHOOK_TIMEOUT_MS', 10000),
      baseDelayMs: positiveInteger(env, 'DEPOT_WEBHOOK_RETRY_BASE_MS', 1000),
      maxDelayMs: positiveInteger(env, 'DEPOT_WEBHOOK_RETRY_MAX_MS', 300000),
      pauseAfterMs: positiveInteger(env, 'DEPOT_WEBHOOK_PAUSE_AFTER_SECONDS', 86400) * 1000,
      retentionMs: positiveInteger(env, 'DEPOT_WEBHOOK_RETENTION_DAYS', 30) * 86_400_000,
    },
  };
}

/** The PEM of an Ed25519 public key, given inline or as a file's path; refused at start if not one. */
function licensePublicKey(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const inline = raw.includes('-----BEGIN');
  let pem: string;
  try {
    pem = inline ? raw : readFileSync(raw, 'utf8');
  } catch (error) {
    throw new Error(`DEPOT_LICENSE_PUBLIC_KEY names a file that cannot be read: ${raw}`, {
      cause: error,
    });
  }
  let type: string | undefined;
  try {
    type = createPublicKey(pem).asymmetricKeyType;
  } catch {
    type = undefined;
  }
  if (type !== 'ed25519')
    throw new Error(
      'DEPOT_LICENSE_PUBLIC_KEY must be an Ed25519 public key in PEM form, or its file',
    );
  return pem;
}

/** `npm=https://...,pypi=https://...`: each an http(s) URL, refused at start otherwise. */
function quickSetupUpstreams(raw: string | undefined): Record<string, string> {
  const upstreams: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',').map((entry) => entry.trim())) {
    if (!pair) continue;
    const equals = pair.indexOf('=');
    const type = pair.slice(0, equals).trim().toLowerCase();
    const url = pair.slice(equals + 1).trim();
    if (equals <= 0 || !/^https?:\/\/[^\s]+$/.test(url))
      throw new Error(
        `DEPOT_QUICK_SETUP_UPSTREAMS takes type=url pairs with http(s) URLs, got '${pair}'`,
      );
    upstreams[type] = url;
  }
  return upstreams;
}

/** A node id is shown in log lines and used in URLs: letters, digits, dot, dash, underscore. */
function nodeId(raw: string | undefined): string {
  const id = raw || hostname();
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(id))
    throw new Error(
      `DEPOT_NODE_ID must be 1 to 64 letters, digits, dots, dashes or underscores, got '${id}'`,
    );
  return id;
}

function trustedProxies(raw: string | undefined): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !/^[0-9a-fA-F.:]+(\/[0-9]{1,3})?$/.test(entry));
  if (bad) throw new Error(`DEPOT_TRUSTED_PROXIES must list IP addresses or CIDRs, got '${bad}'`);
  return entries;
}

function publicOrigin(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
    throw new Error(`DEPOT_PUBLIC_URL must be an http or https URL, got '${raw}'`);
  return url.origin;
}

/** A whole number of at least `min` from the environment; `fallback` when unset. */
function integerAtLeast(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: 0 | 1,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be a whole number of at least ${min}, got '${raw}'`);
  }
  return value;
}

const positiveInteger = (env: NodeJS.ProcessEnv, name: string, fallback: number) =>
  integerAtLeast(env, name, fallback, 1);
/** A positive whole number, or undefined when the variable is not set. */
const optionalPositiveInteger = (env: NodeJS.ProcessEnv, name: string) =>
  env[name] === undefined || env[name] === '' ? undefined : positiveInteger(env, name, 1);

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

const wholeNumber = (env: NodeJS.ProcessEnv, name: string, fallback: number) =>
  integerAtLeast(env, name, fallback, 0);

function backupDirs(value: string | undefined, home: string): string[] {
  const dirs = (value ?? '')
    .split(',')
    .map((dir) => dir.trim())
    .filter(Boolean);
  if (dirs.length === 0) return [join(home, 'backup')];
  for (const dir of dirs)
    if (!isAbsolute(dir))
      throw new Error(`DEPOT_BACKUP_DIRS must list absolute paths, got '${dir}'`);
  return dirs.map((dir) => resolve(dir));
}
