import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { closeGracefully } from './graceful-close.ts';
import { createLogger } from './logger.ts';

/** Past the grace period, how long aborted requests, jobs and the database may take to close. */
const FORCED_EXIT_AFTER_GRACE_MS = 15000;

/** CLI entry: reads config, builds the app, listens, and shuts down cleanly on a signal. */
async function main() {
  const config = loadConfig();
  const logger = createLogger(config);
  const { app } = await buildApp(config, logger);
  await app.listen({ port: config.port, host: config.host });
  logger.info(
    { home: config.home, embedded: !config.databaseUrl },
    `Depot is ready on port ${config.port}`,
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const graceMs = config.shutdownGraceSeconds * 1000;
    logger.info({ signal, graceMs }, 'shutting down');
    // A last resort, past the grace period: a close that cannot finish still ends the process.
    const forced = setTimeout(() => process.exit(1), graceMs + FORCED_EXIT_AFTER_GRACE_MS);
    forced.unref();
    // Stop accepting, let requests in flight finish within the grace period (then abort
    // them), stop the jobs, then close the database.
    let exitCode = 0;
    try {
      await closeGracefully(app, { graceMs, logger });
      logger.info({ signal }, 'shut down');
    } catch (error) {
      logger.error({ err: error }, 'shutting down failed');
      exitCode = 1;
    }
    logger.flush();
    process.exit(exitCode);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  console.error('Depot failed to start:', error);
  process.exit(1);
});
