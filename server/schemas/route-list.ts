import type { Retention } from '../modules/retention/retention-jobs.ts';
import type { Backups } from '../modules/backups/backup-jobs.ts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import { supportBundlesOf } from '../modules/support-bundles/service.ts';
import pino from 'pino';
import { assembleHttp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { SecretBox } from '../crypto/secret-box.ts';
import type { DepotDatabase } from '../db/tables.ts';
import type { RouteEntry } from '../http/identity.ts';
import type { Maintenance } from '../modules/maintenance/maintenance.ts';
import { createServices } from '../services.ts';
import { Filestore } from '../storage/filestore.ts';
import { readVersion } from '../version.ts';
import type { SchemaRegistry } from './registry.ts';

/** A database that compiles queries and never runs one: registering routes runs none. */
const noDatabase = () =>
  new Kysely<DepotDatabase>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });

/**
 * Every route the server registers for these schemas, with what each declares, learned
 * without a database: the same HTTP assembly as the server's (app.ts, assembleHttp), around
 * services over a database that is never asked anything.
 */
export async function listServerRoutes(registry: SchemaRegistry): Promise<RouteEntry[]> {
  const home = mkdtempSync(join(tmpdir(), 'depot-route-list-'));
  try {
    const config = loadConfig({ DEPOT_HOME: home, DEPOT_LOG_STDOUT: 'false' });
    const filestore = new Filestore(config.filestoreDir);
    const services = createServices(
      noDatabase(),
      registry,
      readVersion(),
      filestore,
      new SecretBox(randomBytes(32)),
      config.projectsLimit,
    );
    const maintenance = { stop: async () => {} } as unknown as Maintenance;
    const backups = { stop: async () => {} } as unknown as Backups;
    const retention = { stop: async () => {} } as unknown as Retention;
    const logger = pino({ level: 'silent' });
    const supportBundles = supportBundlesOf(services, config, home, logger);
    const { app } = await assembleHttp({
      config,
      logger,
      services,
      filestore,
      maintenance,
      backups,
      retention,
      supportBundles,
      routesOnly: true,
    });
    await app.ready();
    const routes = [...app.routeCatalog];
    await app.close();
    return routes;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
