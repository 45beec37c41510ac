import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import type { DepotConfig } from './config.ts';

/** The file the log viewer will read; one JSON object a line. */
export const SERVICE_LOG_FILE = 'depot-service.log';

/** Lines kept in memory while the log's disk refuses them; later lines are dropped. */
const MAX_UNWRITTEN_LOG_BYTES = 8 * 1024 * 1024;

type LogFile = ReturnType<typeof pino.destination>;

/**
 * A log file that cannot be written (its disk is full) must not take the server down with
 * it. sonic-boom throws a failed write as an 'error' event nobody listens to, and pino's
 * handler at exit then flushes synchronously, retrying the write every 100 ms for as long
 * as it fails: a process that crashed, or was told to stop, never ends. So: failed writes
 * are reported once on stderr and retried with the next line (up to MAX_UNWRITTEN_LOG_BYTES
 * held, then dropped), and while they fail, the exit's synchronous flush is skipped.
 */
function surviveFailedWrites(file: LogFile) {
  let failing = false;
  file.on('error', (error: NodeJS.ErrnoException) => {
    if (!failing)
      process.stderr.write(
        `Depot cannot write its log file (${error.code ?? error.message}); lines are kept in memory until it can, and dropped past ${MAX_UNWRITTEN_LOG_BYTES / 1024 / 1024} MiB\n`,
      );
    failing = true;
  });
  file.on('write', () => (failing = false));
  const flushSync = file.flushSync.bind(file);
  file.flushSync = () => {
    if (!failing) flushSync();
  };
}

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
    maxLength: MAX_UNWRITTEN_LOG_BYTES,
  });
  surviveFailedWrites(file);
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
