import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createLogger } from './logger.ts';

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
    logger.info({ signal }, 'shutting down');
    // Stop accepting, finish requests in flight, then close the database.
    const forced = setTimeout(() => process.exit(1), 15000);
    forced.unref();
    let exitCode = 0;
    try {
      await app.close();
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
