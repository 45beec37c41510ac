import { open, readFile, stat, unlink, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Conflict } from '../../errors.ts';
import { BACKUP_MESSAGES } from './messages.ts';

/** The lock file a backup holds in the directory it writes into (hidden from the browser). */
export const LOCK_FILE = '.backup.lock';
/** A holder refreshes its lock's time this often; one not refreshed for STALE_AFTER is dead. */
const HEARTBEAT_MS = 30_000;
const STALE_AFTER_MS = 5 * 60_000;

interface Holder {
  pid: number;
  node: string;
  since: string;
}

/**
 * Takes the directory's backup lock, or refuses (409) when another backup holds it: two
 * backups writing into one directory at once could remove each other's packs or base. The
 * file is created with O_EXCL and names its holder (pid and node); a lock whose holder is
 * gone (a process of this node that no longer runs, or a lock of another node not refreshed
 * for five minutes) is stale and taken over. Answers the release.
 */
export async function lockBackupDir(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_FILE);
  const me: Holder = { pid: process.pid, node: hostname(), since: new Date().toISOString() };
  const text = `${JSON.stringify(me)}\n`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(text).finally(() => handle.close());
      const heartbeat = setInterval(() => {
        const now = new Date();
        utimes(path, now, now).catch(() => undefined);
      }, HEARTBEAT_MS);
      heartbeat.unref();
      return async () => {
        clearInterval(heartbeat);
        // Only our own lock: a stale-lock takeover by another may have replaced it.
        if ((await readFile(path, 'utf8').catch(() => '')) === text)
          await unlink(path).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (attempt > 0 || !(await isStale(path))) break;
      await unlink(path).catch(() => undefined);
    }
  }
  throw new Conflict(BACKUP_MESSAGES.directoryBusy);
}

async function isStale(path: string): Promise<boolean> {
  const [text, stats] = await Promise.all([
    readFile(path, 'utf8').catch(() => ''),
    stat(path).catch(() => undefined),
  ]);
  if (!stats) return true;
  let holder: Partial<Holder> = {};
  try {
    holder = JSON.parse(text) as Holder;
  } catch {
    // Being written this instant, or damaged: its age decides.
  }
  if (holder.node === hostname() && typeof holder.pid === 'number') return !isRunning(holder.pid);
  return Date.now() - stats.mtimeMs > STALE_AFTER_MS;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
