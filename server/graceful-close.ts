import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** How often, while closing, connections that went idle are ended. */
const IDLE_SWEEP_MS = 100;

/**
 * Closes the app the way a SIGTERM asks: no new connections, requests in flight get
 * `graceMs` to finish, then the ones still running are aborted (their clients see the
 * connection break, and nothing of an unfinished upload is kept); then the app's own close
 * runs (maintenance jobs stop, the database closes after its open transaction).
 *
 * Why not `app.close()` alone: it waits for every connection to end. An upload still
 * streaming holds it as long as the client sends, and a keep-alive connection whose answer
 * went out after the close began stays open for the keep-alive timeout (72 s), so a close
 * under load never finished.
 */
export async function closeGracefully(
  app: FastifyInstance,
  { graceMs, logger }: { graceMs: number; logger: Logger },
): Promise<void> {
  const server = app.server;
  // A connection whose request is done is ended at once, rather than kept alive.
  const idleSweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const abort = setTimeout(() => {
    logger.warn({ graceMs }, 'shutdown grace period over: aborting requests still in flight');
    server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearInterval(idleSweep);
    clearTimeout(abort);
  }
}
