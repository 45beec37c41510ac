import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

// A backup directory, or a zip backup (`.zip`).
const BACKUP_NAME = /^backup-\d{8}\.\d{6}(-\d+)?(\.zip)?$/;

/** When a backup finished: its manifest says so; a zip's is inside it, so its file's time. */
function finishedAt(path: string): Promise<number> {
  if (path.endsWith('.zip'))
    return stat(path).then(
      (stats) => stats.mtimeMs,
      () => NaN,
    );
  return readFile(join(path, 'manifest.json'), 'utf8').then(
    (text) => Date.parse((JSON.parse(text) as { finishedAt: string }).finishedAt),
    () => NaN,
  );
}

/**
 * Removes the backups in `dir` that finished more than `hours` ago, never `keep` (the one just
 * written): so a failing schedule never removes the last good backup. 0 hours keeps them all.
 * Answers how many went.
 */
export async function removeExpiredBackups(dir: string, hours: number, keep: string) {
  if (hours <= 0) return 0;
  const cutoff = Date.now() - hours * 3600 * 1000;
  let removed = 0;
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if (!BACKUP_NAME.test(name) || path === keep) continue;
    const finished = await finishedAt(path);
    if (Number.isNaN(finished) || finished >= cutoff) continue;
    await rm(path, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

/** The newest backup in `dir`, a directory or a zip (by name, which is its time). */
export async function newestBackupIn(dir: string): Promise<string | undefined> {
  const names = (await readdir(dir).catch(() => [])).filter((name) => BACKUP_NAME.test(name));
  return names.length > 0 ? join(dir, names.sort().at(-1)!) : undefined;
}
