import { resolve } from 'node:path';

/** Everything the server reads from its environment, with the embedded-mode defaults. */
export interface DepotConfig {
  /** Where the embedded database, logs and (later) the filestore live. */
  home: string;
  port: number;
  host: string;
  /** A PostgreSQL URL; when absent the embedded PGlite database under `home/db` is used. */
  databaseUrl: string | undefined;
  /** When set, the first start gives admin this password, not expired (for automation). */
  adminPassword: string | undefined;
  serverName: string;
  logLevel: string;
  /** Whether pino also writes to stdout (tests turn it off to keep output readable). */
  logToStdout: boolean;
  /** The built console, served under /ui/. */
  uiDir: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): DepotConfig {
  const port = Number(env.DEPOT_PORT ?? 8082);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`DEPOT_PORT must be a port number, got '${env.DEPOT_PORT}'`);
  }
  const logLevel = (env.DEPOT_LOG_LEVEL ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new Error(`DEPOT_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return {
    home: resolve(env.DEPOT_HOME ?? './var'),
    port,
    host: env.DEPOT_HOST ?? '0.0.0.0',
    databaseUrl: env.DEPOT_DATABASE_URL || undefined,
    adminPassword: env.DEPOT_ADMIN_PASSWORD || undefined,
    serverName: env.DEPOT_SERVER_NAME ?? 'Depot',
    logLevel,
    logToStdout: env.DEPOT_LOG_STDOUT !== 'false',
    uiDir: resolve(env.DEPOT_UI_DIR ?? 'dist/ui'),
  };
}
