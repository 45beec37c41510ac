import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import type { DepotConfig } from './config.ts';

/** The file the log viewer will read; one JSON object a line. */
export const SERVICE_LOG_FILE = 'depot-service.log';

/**
 * pino writing JSON lines to `$DEPOT_HOME/logs/depot-service.log` and, unless turned off,
 * to stdout. Credentials never reach the log: headers that carry them are redacted.
 */
export function createLogger(config: DepotConfig): Logger {
  const logDir = join(config.home, 'logs');
  mkdirSync(logDir, { recursive: true });
  const streams: pino.StreamEntry[] = [
    {
      stream: pino.destination({ dest: join(logDir, SERVICE_LOG_FILE), mkdir: true, sync: false }),
    },
  ];
  if (config.logToStdout) streams.push({ stream: process.stdout });
  return pino(
    {
      level: config.logLevel,
      base: { service: 'depot' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password'],
        censor: '[redacted]',
      },
    },
    pino.multistream(streams),
  );
}
