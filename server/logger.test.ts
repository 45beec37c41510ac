import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mountSmallDisk, type SmallDisk } from '../tests/helpers/small-disk.ts';
import { loadConfig } from './config.ts';
import { createLogger, SERVICE_LOG_FILE } from './logger.ts';

/** The service log on a disk that fills up (a 1 MiB tmpfs as DEPOT_HOME). */
let disk: SmallDisk | undefined;
afterEach(() => disk?.release());

const loggerOn = (home: string) =>
  createLogger(loadConfig({ DEPOT_HOME: home, DEPOT_LOG_STDOUT: 'false' }));
const flushed = (logger: ReturnType<typeof createLogger>) =>
  new Promise((resolve) => logger.flush(resolve));
const logLines = (home: string) =>
  readFileSync(join(home, 'logs', SERVICE_LOG_FILE), 'utf8')
    .trim()
    .split('\n');

describe('the service log on a full disk', () => {
  it('keeps the process running while its lines do not fit, and writes them once they do', async () => {
    disk = mountSmallDisk('depot-log-disk-', 1024 * 1024);
    const logger = loggerOn(disk.path);
    logger.info('before the disk filled');
    await flushed(logger);
    disk.fill();

    // More than the log file's last page holds: tmpfs keeps whole pages.
    for (let i = 0; i < 20; i++)
      logger.info({ i, pad: 'x'.repeat(1000) }, 'while the disk is full');
    // The write fails within a millisecond; unheard, its error would end the process (vitest
    // reports it). A flush is not awaited here: it would listen for that error itself.
    await new Promise((resolve) => setTimeout(resolve, 500));
    disk.empty();
    logger.info('after the disk was emptied');
    await flushed(logger);

    const messages = logLines(disk.path).map((line) => JSON.parse(line).msg);
    expect(messages).toEqual([
      'before the disk filled',
      ...Array(20).fill('while the disk is full'),
      'after the disk was emptied',
    ]);
  });

  it('lets the process exit at once while its lines do not fit', async () => {
    disk = mountSmallDisk('depot-log-disk-', 1024 * 1024);
    disk.fill();
    const script = `
      import { createLogger } from ${JSON.stringify(new URL('./logger.ts', import.meta.url).href)};
      import { loadConfig } from ${JSON.stringify(new URL('./config.ts', import.meta.url).href)};
      const logger = createLogger(loadConfig({ DEPOT_HOME: ${JSON.stringify(disk.path)}, DEPOT_LOG_STDOUT: 'false' }));
      for (let i = 0; i < 20; i++) logger.info({ i, pad: 'x'.repeat(1000) }, 'while the disk is full');
      logger.flush(() => process.exit(0));`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // pino's exit handler used to retry the failed write every 100 ms for as long as the
    // disk stayed full: a hang, told apart here from a slow exit by a generous minute.
    const hung = setTimeout(() => child.kill('SIGKILL'), 60000);
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
      child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(hung);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr).toContain('Depot cannot write its log file (ENOSPC)');
  }, 90000);
});
