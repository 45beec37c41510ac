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
  // minLength 1 writes each line at once, as 0 would, but makes `flush` wait for a write in
  // flight: with 0, sonic-boom's flush calls back at once.
  const file = pino.destination({
    dest: join(logDir, SERVICE_LOG_FILE),
    mkdir: true,
    sync: false,
    minLength: 1,
  });
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
      base: { service: 'depot' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password'],
        censor: '[redacted]',
      },
    },
    destinations,
  );
}
