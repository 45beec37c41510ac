import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ensureAdminUser } from './bootstrap.ts';
import type { DepotConfig } from './config.ts';
import { migrateToLatest, openDatabase, type Database } from './db/database.ts';
import { frameworkErrors, installErrorHandler } from './http/error-handler.ts';
import { identityPlugin } from './http/identity.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { groupsRoutes } from './modules/groups/routes.ts';
import { packageTypesRoutes } from './modules/package-types/routes.ts';
import { restSecurityRoutes } from './modules/rest-security/routes.ts';
import { artifactsRoutes } from './modules/artifacts/routes.ts';
import { storageRoutes } from './modules/artifacts/storage-routes.ts';
import { copyMoveRoutes } from './modules/artifacts/copy-move-routes.ts';
import { trashRoutes } from './modules/trash/routes.ts';
import { maintenanceRoutes } from './modules/maintenance/routes.ts';
import { remoteRoutes } from './modules/remote/routes.ts';
import { repositoriesRoutes } from './modules/repositories/routes.ts';
import { Filestore } from './storage/filestore.ts';
import { join } from 'node:path';
import { schemasRoutes } from './modules/schemas/routes.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { uiRoutes } from './modules/ui/routes.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { createBodyAjv, createQueryAjv } from './schemas/ajv.ts';
import { loadSchemaRegistry } from './schemas/registry.ts';
import { createServices, type Services } from './services.ts';
import { readVersion } from './version.ts';

const TRASH_PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface DepotApp {
  app: FastifyInstance;
  services: Services;
  db: Database;
}

/**
 * Builds the whole server: database (migrated), services, plugins and routes, in the order
 * external plugins → app plugins → routes. main.ts listens; tests call `inject` on it.
 */
export async function buildApp(config: DepotConfig, logger: Logger): Promise<DepotApp> {
  const db = await openDatabase(config, logger);
  await migrateToLatest(db, logger);
  const filestore = new Filestore(join(config.home, 'filestore'));
  const swept = filestore.sweepTemp();
  if (swept > 0) logger.warn({ files: swept }, 'removed temp files an interrupted upload left');
  const services = createServices(db, loadSchemaRegistry(), readVersion(), filestore);
  await ensureAdminUser(services, config, logger);

  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: true,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    frameworkErrors,
  });
  const bodyAjv = createBodyAjv();
  const queryAjv = createQueryAjv();
  // Bodies and path parameters are checked as sent, with the schemas' own messages;
  // query strings arrive as text and are coerced.
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' || httpPart === 'params' ? bodyAjv : queryAjv).compile(schema),
  );
  installErrorHandler(app);
  // No answer may be sniffed into another type (an uploaded file rendered as HTML, say).
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
  });

  await app.register(fastifyCookie);
  await app.register(identityPlugin, {
    auth: services.auth,
    securityConfig: services.securityConfig,
  });

  await app.register(systemRoutes, { services });
  await app.register(restSecurityRoutes, { services });
  await app.register(repositoriesRoutes, { services });
  await app.register(storageRoutes, { services });
  await app.register(copyMoveRoutes, { services });
  await app.register(trashRoutes, { services });
  await app.register(artifactsRoutes, { services, filestore });
  await app.register(
    async (api) => {
      await api.register(authRoutes, { services, config });
      await api.register(usersRoutes, { services });
      await api.register(groupsRoutes, { services });
      await api.register(schemasRoutes, { services });
      await api.register(maintenanceRoutes, { services });
      await api.register(remoteRoutes, { services });
      await api.register(packageTypesRoutes, { catalogue: services.catalogue });
    },
    { prefix: '/ui/api/v1' },
  );
  await app.register(uiRoutes, { uiDir: config.uiDir });

  // Until the job scheduler exists: the trash retention purge, hourly, on every node (it is
  // idempotent, so two nodes running it at once do no harm).
  const trashPurge = setInterval(() => {
    services.trash
      .purgeExpired()
      .catch((error) => logger.error({ err: error }, 'trash purge failed'));
  }, TRASH_PURGE_INTERVAL_MS);
  trashPurge.unref();

  app.addHook('onClose', async () => {
    clearInterval(trashPurge);
    await db.destroy();
  });
  return { app, services, db };
}
