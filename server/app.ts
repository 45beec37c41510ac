import { createServer, type RequestListener } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ensureAdminUser, unlockUsersAtStart } from './bootstrap.ts';
import type { DepotConfig } from './config.ts';
import { databasePoolStats, migrateToLatest, openDatabase, type Database } from './db/database.ts';
import { startChangeListener } from './db/change-listener.ts';
import { frameworkErrors, installErrorHandler } from './http/error-handler.ts';
import { crossSitePlugin } from './http/cross-site.ts';
import { identityPlugin } from './http/identity.ts';
import { createBodyRateGuard } from './http/slow-bodies.ts';
import { jsonBodyDepthLimit } from './http/json-body.ts';
import { KnownCallers } from './http/known-callers.ts';
import {
  createDownloadFastPath,
  type DownloadFastPath,
} from './modules/artifacts/download-fast-path.ts';
import { logDirOf } from './logger.ts';
import { auditHook } from './logs/audit-hook.ts';
import { createAuditLog, type AuditLog } from './logs/audit-log.ts';
import { createRequestLog, type RequestLog } from './logs/request-log.ts';
import { startHeartbeat } from './modules/cluster/heartbeat.ts';
import { clusterStatusRoutes } from './modules/cluster/routes.ts';
import { createClusterStatus } from './modules/cluster/service.ts';
import { systemLogsRoutes } from './modules/system-logs/routes.ts';
import { supportBundleRoutes } from './modules/support-bundles/routes.ts';
import { supportBundlesOf, type SupportBundles } from './modules/support-bundles/service.ts';
import { mfaRoutes } from './modules/mfa/routes.ts';
import { projectConsoleRoutes, projectRoutes } from './modules/projects/routes.ts';
import { profileRoutes } from './modules/users/profile-routes.ts';
import { mailRoutes } from './modules/mail/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { groupsRoutes } from './modules/groups/routes.ts';
import { packageTypesRoutes } from './modules/package-types/routes.ts';
import { restSecurityRoutes } from './modules/rest-security/routes.ts';
import { permissionTargetRestRoutes } from './modules/access-control/rest-routes.ts';
import { permissionTargetConsoleRoutes } from './modules/access-control/console-routes.ts';
import { npmWebLoginRoutes } from './formats/npm/web-login-routes.ts';
import { registryRoutesAt } from './formats/docker/registry-routes.ts';
import {
  createManifestFastPath,
  type ManifestFastPath,
} from './formats/docker/manifest-fast-path.ts';
import { dockerRegistryOf } from './formats/docker/service.ts';
import { dockerImageViewRoutes } from './formats/docker/image-view-routes.ts';
import { accessTokenRoutes } from './modules/access-tokens/routes.ts';
import { packagesRoutes } from './modules/packages/routes.ts';
import { setMeUpRoutes } from './modules/set-me-up/routes.ts';
import {
  reverseProxyDataRoutes,
  reverseProxySnippetRoutes,
} from './modules/reverse-proxy/routes.ts';
import { artifactsRoutes } from './modules/artifacts/routes.ts';
import { archiveDownloadRoutes } from './modules/archives/routes.ts';
import { artifactActionsRoutes } from './modules/artifact-actions/routes.ts';
import { artifactGeneralRoutes } from './modules/artifact-general/routes.ts';
import { artifactPropertiesRoutes } from './modules/artifact-properties/routes.ts';
import { archiveViewRoutes } from './modules/archive-view/routes.ts';
import { createArchiveView } from './modules/archive-view/service.ts';
import { fileViewsRoutes } from './modules/file-views/routes.ts';
import { createFileViews } from './modules/file-views/service.ts';
import { createFolderDownloads } from './modules/archives/folder-download.ts';
import { createBundleDeploys } from './modules/archives/bundle-deploy.ts';
import { storageRoutes } from './modules/artifacts/storage-routes.ts';
import { searchRestRoutes } from './modules/search/rest-routes.ts';
import { searchConsoleRoutes } from './modules/search/console-routes.ts';
import { copyMoveRoutes } from './modules/artifacts/copy-move-routes.ts';
import { trashRoutes } from './modules/trash/routes.ts';
import { maintenanceRoutes } from './modules/maintenance/routes.ts';
import { startMaintenance, type Maintenance } from './modules/maintenance/maintenance.ts';
import { startBackups, type Backups } from './modules/backups/backup-jobs.ts';
import { backupConsoleRoutes, systemExportRoutes } from './modules/backups/routes.ts';
import { repositoryExportRoutes } from './modules/repo-export/routes.ts';
import { createRepoExportService } from './modules/repo-export/service.ts';
import {
  configDescriptorConsoleRoutes,
  configurationRestRoutes,
} from './modules/config-descriptor/routes.ts';
import { createConfigurationService } from './modules/config-descriptor/service.ts';
import { startRetention, type Retention } from './modules/retention/retention-jobs.ts';
import { retentionRoutes } from './modules/retention/routes.ts';
import { remoteRoutes } from './modules/remote/routes.ts';
import { repositoriesRoutes } from './modules/repositories/routes.ts';
import { repositoryInfoRoutes } from './modules/repositories/info-routes.ts';
import { repositoriesUiRoutes } from './modules/repositories/ui-routes.ts';
import { onboardingRoutes } from './modules/onboarding/routes.ts';
import { propertySetsRoutes } from './modules/property-sets/routes.ts';
import { storageSummaryRoutes } from './modules/storage-summary/routes.ts';
import { treeBrowserRoutes } from './modules/tree-browser/routes.ts';
import { nativeBrowserRoutes } from './modules/tree-browser/native-routes.ts';
import { watchesRoutes } from './modules/watches/routes.ts';
import { effectivePermissionsRoutes } from './modules/effective-permissions/routes.ts';
import { Filestore } from './storage/filestore.ts';
import { loadMasterKey, SecretBox } from './crypto/secret-box.ts';
import { entityRoutes } from './modules/entities/routes.ts';
import { buildRestRoutes } from './modules/builds/rest-routes.ts';
import { buildConsoleRoutes } from './modules/builds/console-routes.ts';
import { buildPagesRoutes } from './modules/builds/console-build-routes.ts';
import { licenseBucketsRoutes } from './modules/license-buckets/routes.ts';
import { schemasRoutes } from './modules/schemas/routes.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { uiRoutes } from './modules/ui/routes.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { createBodyAjv, createQueryAjv, routeValidatorOnFirstUse } from './schemas/ajv.ts';
import { loadSchemaRegistry } from './schemas/registry.ts';
import { watchSchemaRegistry } from './schemas/watch-registry.ts';
import { createServices, type Services } from './services.ts';
import { readVersion } from './version.ts';
import { createDispatcher, type Dispatcher } from './modules/webhooks/dispatcher.ts';
import { setEventInterest } from './modules/events/outbox.ts';
import { createMetrics, type Metrics } from './modules/metrics/metrics.ts';
import { requestMetricsPlugin, unmatchedRecorder } from './modules/metrics/http-hooks.ts';
import { metricsRoutes } from './modules/metrics/routes.ts';
import { binaryTotals } from './modules/storage-summary/queries.ts';
import { openApiPlugin, openApiRoutes } from './modules/openapi/openapi.ts';
import { eventApiRoutes, webhookConsoleRoutes } from './modules/webhooks/routes.ts';

export interface DepotApp {
  app: FastifyInstance;
  services: Services;
  db: Database;
  downloadFastPath: DownloadFastPath;
  /** The registry's manifest HEAD and GET before Fastify (formats/docker/manifest-fast-path.ts). */
  manifestFastPath: ManifestFastPath;
  /** Delivers webhook events (docs/webhooks.md); stopped when the app closes. */
  dispatcher: Dispatcher;
  /** The scheduled jobs (maintenance, trash and webhook history purges); stopped on close. */
  maintenance: Maintenance;
}

/**
 * Fastify's own HTTP server, with the download fast path in front of it: a request it
 * answers never reaches Fastify (server/modules/artifacts/download-fast-path.ts). Headers
 * must arrive within their timeout and bodies at the minimum rate (http/slow-bodies.ts).
 */
function serverWithFastPath(
  fastPaths: readonly { answer: DownloadFastPath['answer'] }[],
  limits: DepotConfig['requestLimits'],
  logger: Logger,
  requestLog: RequestLog | undefined,
) {
  return (
    handler: RequestListener,
    options: {
      keepAliveTimeout?: number;
      requestTimeout?: number;
      connectionTimeout?: number;
      maxRequestsPerSocket?: number;
    },
  ) => {
    const bodyRate = createBodyRateGuard(limits.body, logger);
    const headersTimeout = limits.headersTimeoutSeconds * 1000;
    // Node checks the headers timeout on this interval: half of it, at most Node's default.
    const connectionsCheckingInterval = Math.min(30000, headersTimeout / 2);
    const server = createServer({ connectionsCheckingInterval }, (request, response) => {
      bodyRate.watch(request, response);
      requestLog?.watch(request, response);
      if (!fastPaths.some((fastPath) => fastPath.answer(request, response)))
        handler(request, response);
    });
    server.headersTimeout = headersTimeout;
    server.on('close', bodyRate.stop);
    // What Fastify's default factory sets from its options.
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}

/**
 * Builds the whole server: database (migrated), services, plugins and routes, in the order
 * external plugins → app plugins → routes. main.ts listens; tests call `inject` on it.
 */
export async function buildApp(config: DepotConfig, logger: Logger): Promise<DepotApp> {
  const db = await openDatabase(config, logger);
  await migrateToLatest(db, logger);
  const filestore = new Filestore(config.filestoreDir, config.nodeId);
  const swept = filestore.sweepTemp();
  if (swept > 0) logger.warn({ files: swept }, 'removed temp files an interrupted upload left');
  const secrets = new SecretBox(loadMasterKey(config));
  const services = createServices(
    db,
    loadSchemaRegistry(config.schemasDir),
    readVersion(),
    filestore,
    secrets,
    config.projectsLimit,
    { timeoutMs: config.webhooks.timeoutMs, origin: config.publicOrigin ?? '' },
    config.backupDirs,
    config.folderDownload,
  );
  const schemaWatch = config.schemasReload
    ? watchSchemaRegistry(services.schemas, services.schemas.dir, logger)
    : undefined;
  // On PostgreSQL other nodes may share the database: their writes clear our caches too.
  const changeListener = config.databaseUrl
    ? await startChangeListener(config.databaseUrl, services.tableChanges, logger)
    : undefined;
  await ensureAdminUser(services, config, logger);
  await unlockUsersAtStart(services, config, logger);
  // Scheduled jobs (garbage collection, cache cleanup, the trash purge, ...); stopped on close.
  const maintenance = await startMaintenance(services, config, logger);
  // Configured backups by their crons, and the system export and import (docs/backup.md).
  const backups = await startBackups(services, config, logger);
  // Retention policies by their crons, the archive and its cold store (docs/retention.md).
  const retention = await startRetention(services, config, logger);
  services.downloadStats.onFlushError((error) =>
    logger.warn({ err: error }, 'writing download statistics failed; kept for the next try'),
  );

  // Delivers the outbox's events to webhook subscribers; an outbox write wakes it.
  const dispatcher = createDispatcher({
    db: services.db,
    subscriptions: () => services.webhooks.subscriptions(),
    allowList: async () => (await services.securityConfig.get()).remoteAllowList,
    proxyOf: (key) => services.proxies.resolve(key, 'webhooks'),
    settings: config.webhooks,
    // The base URL an admin set, else DEPOT_PUBLIC_URL (docs/webhooks.md).
    origin: async () => (await services.generalConfig.baseUrl()) ?? config.publicOrigin ?? '',
    logger,
  });
  services.tableChanges.onChange(['event_outbox'], dispatcher.wake);
  // Events no subscription selects are not written (docs/webhooks.md, "Events"). Only on
  // the embedded database: one node, whose own subscription writes reach its list before
  // they commit. Other nodes hear of a subscription a moment after its commit, and an event
  // committed in between would be lost to it.
  if (!config.databaseUrl) setEventInterest(services.db, services.webhooks.wantsEvent);
  dispatcher.start();
  // This node's row and heartbeat in the cluster's nodes table (docs/service-status.md).
  const heartbeat = await startHeartbeat({
    db: services.db,
    nodeId: config.nodeId,
    version: services.version.version,
    heartbeatSeconds: config.heartbeatSeconds,
    filestoreDir: config.filestoreDir,
    scheduler: maintenance.scheduler,
    logger,
  });

  const metrics = config.metrics
    ? createMetrics({
        filestoreDir: config.filestoreDir,
        binaryTotals: () => binaryTotals(db),
        poolStats: () => databasePoolStats(db),
        garbageCollection: config.metricsGarbageCollection,
      })
    : undefined;
  if (metrics) {
    maintenance.scheduler.onRunEnded(metrics.recordJobRun);
    services.remote.onUpstreamFailure(metrics.recordUpstreamFailure);
  }

  // Beside the service log: one line a request, and the audit trail (docs/logs.md).
  const logs = {
    requestLog: createRequestLog(logDirOf(config), config.nodeId, config.logFiles),
    auditLog: createAuditLog(logDirOf(config), config.nodeId, config.logFiles),
  };
  // Support bundles (docs/support-bundles.md): what this node left unfinished has failed.
  const supportBundles = supportBundlesOf(services, config, logDirOf(config), logger);
  await supportBundles.start();
  const { app, downloadFastPath, manifestFastPath } = await assembleHttp({
    config,
    logger,
    services,
    filestore,
    maintenance,
    metrics,
    logs,
    backups,
    retention,
    supportBundles,
  });
  if (metrics) metrics.watchServer(app.server);

  app.addHook('onClose', async () => {
    schemaWatch?.close();
    await heartbeat.stop();
    await supportBundles.close();
    await dispatcher.stop();
    await backups.stop();
    await retention.stop();
    await maintenance.stop();
    await services.downloadStats.stop();
    await changeListener?.close();
    await db.destroy();
    await logs.requestLog.close();
    await logs.auditLog.close();
  });
  // Writes through the returned db clear the read caches, as the services' own do.
  return {
    app,
    services,
    db: services.db,
    downloadFastPath,
    manifestFastPath,
    dispatcher,
    maintenance,
  };
}

export interface HttpParts {
  config: DepotConfig;
  logger: Logger;
  services: Services;
  filestore: Filestore;
  maintenance: Maintenance;
  /** Depot's metrics (docs/metrics.md); absent when DEPOT_METRICS=false or for the route list. */
  metrics?: Metrics;
  /** The request and audit logs; absent when only the route list is wanted. */
  logs?: { requestLog: RequestLog; auditLog: AuditLog };
  backups: Backups;
  retention: Retention;
  supportBundles: SupportBundles;
  /** Only the route list is wanted (schemas:check): no request is served, so nothing is compiled. */
  routesOnly?: boolean;
}

/**
 * The HTTP side of the server: Fastify with its plugins and every route, around services that
 * exist already. buildApp uses it; schemas:check uses it too, on services over no database,
 * to learn the route list without starting one (server/schemas/route-list.ts).
 */
export async function assembleHttp({
  config,
  logger,
  services,
  filestore,
  maintenance,
  metrics,
  logs,
  backups,
  retention,
  supportBundles,
  routesOnly = false,
}: HttpParts) {
  const knownCallers = new KnownCallers(services.tableChanges);
  const downloadFastPath = createDownloadFastPath({
    services,
    filestore,
    knownCallers,
    logger,
    downloads: metrics?.requests.family('/artifactory/:repoKey/*'),
  });
  const manifestFastPath = createManifestFastPath({
    services,
    registry: dockerRegistryOf({ services, filestore, config }),
    knownCallers,
    logger,
  });
  const app: FastifyInstance = Fastify({
    serverFactory: serverWithFastPath(
      [downloadFastPath, manifestFastPath],
      config.requestLimits,
      logger,
      logs?.requestLog,
    ),
    loggerInstance: logger as FastifyBaseLogger,
    // Forwarded headers only from configured proxies (docs/security-config.md).
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    frameworkErrors,
  });
  const bodyAjv = createBodyAjv();
  const queryAjv = createQueryAjv();
  // Bodies and path parameters are checked as sent, with the schemas' own messages;
  // query strings arrive as text and are coerced.
  app.setValidatorCompiler(({ schema, httpPart }) =>
    routesOnly
      ? () => true
      : routeValidatorOnFirstUse(
          httpPart === 'body' || httpPart === 'params' ? bodyAjv : queryAjv,
          schema,
        ),
  );
  // Answers are never sent when only the route list is wanted: no serializer to compile.
  if (routesOnly) app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  installErrorHandler(app, {
    hideUnauthorizedResources: async () =>
      (await services.securityConfig.get()).hideUnauthorizedResources,
    onNotFound: metrics && unmatchedRecorder(metrics.requests),
  });
  // No answer may be sniffed into another type (an uploaded file rendered as HTML, say).
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
  });

  await app.register(jsonBodyDepthLimit);
  await app.register(fastifyCookie);
  // Before identity: a cross-site write is refused whoever it claims to come from.
  await app.register(crossSitePlugin, { publicOrigin: config.publicOrigin });
  if (logs) await app.register(auditHook, { auditLog: logs.auditLog });
  await app.register(identityPlugin, {
    knownCallers,
    auth: services.auth,
    securityConfig: services.securityConfig,
    tokens: services.tokens,
    apiKeys: services.apiKeys,
    throttle: services.signInThrottle,
  });
  // Before any route: each route gets its recorder as it registers.
  if (metrics) await app.register(requestMetricsPlugin, { requests: metrics.requests });
  await app.register(openApiPlugin, { version: services.version.version });

  await app.register(systemRoutes, { services });
  await app.register(metricsRoutes, { metrics });
  await app.register(openApiRoutes);
  await app.register(clusterStatusRoutes, {
    cluster: createClusterStatus(services.db, config.nodeId),
  });
  await app.register(restSecurityRoutes, { services });
  await app.register(permissionTargetRestRoutes, { services });
  await app.register(accessTokenRoutes, { services });
  await app.register(projectRoutes, { services });
  await app.register(repositoriesRoutes, { services });
  await app.register(storageRoutes, { services });
  await app.register(searchRestRoutes, { services, aqlLimits: config.aql });
  await app.register(copyMoveRoutes, { services });
  await app.register(buildRestRoutes, { services, maxMb: config.buildInfoMaxMb });
  await app.register(trashRoutes, { services });
  await app.register(systemExportRoutes, { backups });
  await app.register(repositoryExportRoutes, {
    repoExport: createRepoExportService(services, config),
  });
  const configuration = createConfigurationService(services, config.backupDirs);
  await app.register(configurationRestRoutes, { configuration });
  await app.register(reverseProxySnippetRoutes, { services });
  // Each package format's client protocol under /artifactory/api/<format>/ (docs/formats.md).
  for (const { format, routes } of services.formats)
    if (routes)
      await app.register(routes, {
        services,
        filestore,
        config,
        prefix: `/artifactory/api/${format.name}`,
      });
  // The Docker registry protocol at /v2/, outside its format's path (docs/docker.md).
  await app.register(registryRoutesAt('/v2'), { services, filestore, config });
  await app.register(artifactsRoutes, {
    services,
    filestore,
    bundleDeploys: createBundleDeploys(services, config.archiveDeploy),
    buildInfoMaxMb: config.buildInfoMaxMb,
  });
  await app.register(artifactActionsRoutes, { services });
  await app.register(archiveDownloadRoutes, {
    folderDownloads: createFolderDownloads(services),
    access: services.access,
  });
  const archiveView = createArchiveView(services, config.archiveDeploy);
  await app.register(
    async (api) => {
      await api.register(authRoutes, { services, config });
      await api.register(mfaRoutes, { services });
      await api.register(usersRoutes, { services });
      await api.register(profileRoutes, { services });
      await api.register(mailRoutes, { services });
      await api.register(groupsRoutes, { services });
      await api.register(schemasRoutes, { services });
      await api.register(maintenanceRoutes, { services, maintenance });
      await api.register(backupConsoleRoutes, { backups });
      await api.register(configDescriptorConsoleRoutes, { configuration });
      await api.register(retentionRoutes, { services, retention });
      await api.register(remoteRoutes, { services });
      await api.register(repositoriesUiRoutes, { services });
      await api.register(repositoryInfoRoutes, { services });
      await api.register(onboardingRoutes, { services, options: config.onboarding });
      await api.register(propertySetsRoutes, { services });
      // Every descriptor with a `store`: its calls, from the descriptor alone.
      await api.register(entityRoutes, { services });
      await api.register(storageSummaryRoutes, { services });
      await api.register(treeBrowserRoutes, { services });
      await api.register(nativeBrowserRoutes, { services });
      await api.register(artifactGeneralRoutes, { services });
      await api.register(artifactPropertiesRoutes, { services });
      await api.register(watchesRoutes, { services });
      await api.register(archiveViewRoutes, { archiveView, access: services.access });
      await api.register(fileViewsRoutes, {
        fileViews: createFileViews(services, archiveView),
        access: services.access,
      });
      await api.register(dockerImageViewRoutes, { services });
      await api.register(effectivePermissionsRoutes, { services });
      await api.register(permissionTargetConsoleRoutes, { services });
      await api.register(npmWebLoginRoutes, { services });
      await api.register(projectConsoleRoutes, { services });
      await api.register(packagesRoutes, { services });
      await api.register(setMeUpRoutes, { services });
      await api.register(reverseProxyDataRoutes, { services });
      await api.register(searchConsoleRoutes, { services });
      await api.register(buildConsoleRoutes, { services });
      await api.register(buildPagesRoutes, { services });
      await api.register(packageTypesRoutes, { catalogue: services.catalogue });
      await api.register(webhookConsoleRoutes, { services });
      await api.register(systemLogsRoutes, {
        logDir: logDirOf(config),
        nodeId: config.nodeId,
        refreshRateMillis: config.logFiles.viewerRefreshMs,
      });
    },
    { prefix: '/ui/api/v1' },
  );
  // Platform-level calls, at the spec's mission-control paths.
  await app.register(licenseBucketsRoutes, {
    services,
    publicKeyPem: config.licensePublicKey,
    serverName: config.serverName,
    prefix: '/mc/api/v1',
  });
  await app.register(supportBundleRoutes, { bundles: supportBundles });
  // The Event API: webhook domains and subscriptions (docs/webhooks.md).
  await app.register(eventApiRoutes, { services, prefix: '/event/api/v1' });
  await app.register(uiRoutes, { uiDir: config.uiDir });
  return { app, downloadFastPath, manifestFastPath };
}
