import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import type { DepotConfig } from './config.ts';
import { openLogDestination } from './logs/log-destination.ts';
import { loggedPath } from './logs/request-log.ts';

/** The service log, one JSON object a line; the log viewer reads it (docs/logs.md). */
export const SERVICE_LOG_FILE = 'depot-service.log';

/** Where the service, request and audit logs live. */
export const logDirOf = (config: DepotConfig) => join(config.home, 'logs');

/**
 * pino writing JSON lines to `$DEPOT_HOME/logs/depot-service.log` (rotated by size) and,
 * unless turned off, to stdout. Credentials never reach the log: headers that carry them
 * are redacted, and a request's URL is logged as the request log writes it, without its
 * query string (a password reset key travels there) or a path segment that is a token.
 */
export function createLogger(config: DepotConfig): Logger {
  const file = openLogDestination(logDirOf(config), SERVICE_LOG_FILE, config.logFiles);
  const streams: pino.StreamEntry[] = [{ stream: file }];
  if (config.logToStdout) streams.push({ stream: process.stdout });
  // pino's multistream has no flush(callback): `logger.flush(done)` would call back at once,
  // before the file holds the lines. Flushing the file is what a caller waits for.
  const destinations = Object.assign(pino.multistream(streams), {
    flush: (done: (error?: Error) => void) => file.flush(done),
  });
  return pino(
    {
      level: config.logLevel,
      base: { service: 'depot', node: config.nodeId },
      serializers: { req: requestFields },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password'],
        censor: '[redacted]',
      },
    },
    destinations,
  );
}

/** A request as Fastify logs it (`incoming request`), its URL without secrets. */
function requestFields(request: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
}) {
  return {
    method: request.method,
    url: loggedPath(request.url),
    host: request.host ?? request.headers?.host,
    remoteAddress: request.ip,
  };
}
