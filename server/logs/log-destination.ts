import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';

/** Lines kept in memory while the log's disk refuses them; later lines are dropped. */
export const MAX_UNWRITTEN_LOG_BYTES = 8 * 1024 * 1024;

export type LogDestination = ReturnType<typeof pino.destination>;

/** When a log is rotated and how many rotated files of it are kept (config.logFiles). */
export interface LogRotation {
  maxFileBytes: number;
  maxRotatedFiles: number;
}

/** The n-th newest rotated file of a log: `depot-request.log.1` is the one rotated last. */
export const rotatedFileName = (name: string, n: number) => `${name}.${n}`;

/**
 * A log file in `logDir` written asynchronously by sonic-boom (pino's destination), rotated
 * by size, that survives a disk that refuses writes (see surviveFailedWrites).
 */
export function openLogDestination(
  logDir: string,
  name: string,
  rotation: LogRotation,
): LogDestination {
  // minLength 1 writes each line at once, as 0 would, but makes `flush` wait for a write in
  // flight: with 0, sonic-boom's flush calls back at once.
  const file = pino.destination({
    dest: join(logDir, name),
    mkdir: true,
    sync: false,
    minLength: 1,
    maxLength: MAX_UNWRITTEN_LOG_BYTES,
  });
  surviveFailedWrites(file, name);
  rotateBySize(file, join(logDir, name), rotation);
  return file;
}

/**
 * When the bytes written reach the limit, `<path>` becomes `<path>.1` (older ones move up one,
 * the oldest past the kept count is deleted) and the destination reopens a fresh `<path>`.
 * Renames, not copies: a write still in flight lands in the renamed file, which is the same
 * file, so no line is lost or split across two files.
 */
function rotateBySize(file: LogDestination, path: string, rotation: LogRotation) {
  let size = existsSync(path) ? statSync(path).size : 0;
  let failed = false;
  file.on('write', (bytes: number) => {
    size += bytes;
    if (size < rotation.maxFileBytes) return;
    size = 0;
    try {
      shiftRotatedFiles(path, rotation.maxRotatedFiles);
      file.reopen();
      failed = false;
    } catch (error) {
      // The file keeps growing; the next line tries again. Said once, not once a line.
      if (!failed)
        process.stderr.write(`Depot cannot rotate its log ${path}: ${(error as Error).message}\n`);
      failed = true;
    }
  });
}

function shiftRotatedFiles(path: string, keep: number) {
  rmSync(rotatedFileName(path, keep), { force: true });
  for (let n = keep - 1; n >= 1; n -= 1) {
    const from = rotatedFileName(path, n);
    if (existsSync(from)) renameSync(from, rotatedFileName(path, n + 1));
  }
  if (keep === 0) rmSync(path, { force: true });
  else renameSync(path, rotatedFileName(path, 1));
}

/**
 * A log file that cannot be written (its disk is full) must not take the server down with
 * it. sonic-boom throws a failed write as an 'error' event nobody listens to, and pino's
 * handler at exit then flushes synchronously, retrying the write every 100 ms for as long
 * as it fails: a process that crashed, or was told to stop, never ends. So: failed writes
 * are reported once on stderr and retried with the next line (up to MAX_UNWRITTEN_LOG_BYTES
 * held, then dropped), and while they fail, the exit's synchronous flush is skipped.
 */
function surviveFailedWrites(file: LogDestination, name: string) {
  let failing = false;
  file.on('error', (error: NodeJS.ErrnoException) => {
    if (!failing)
      process.stderr.write(
        `Depot cannot write its log file (${error.code ?? error.message}) ${name}; lines are kept in memory until it can, and dropped past ${MAX_UNWRITTEN_LOG_BYTES / 1024 / 1024} MiB\n`,
      );
    failing = true;
  });
  file.on('write', () => (failing = false));
  const flushSync = file.flushSync.bind(file);
  file.flushSync = () => {
    if (!failing) flushSync();
  };
}
