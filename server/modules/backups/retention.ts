import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

const BACKUP_NAME = /^backup-\d{8}\.\d{6}(-\d+)?$/;

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
    const finishedAt = await readFile(join(path, 'manifest.json'), 'utf8').then(
      (text) => Date.parse((JSON.parse(text) as { finishedAt: string }).finishedAt),
      () => NaN,
    );
    if (Number.isNaN(finishedAt) || finishedAt >= cutoff) continue;
    await rm(path, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

/** The newest backup in `dir` (by name, which is its time), when `dir` is not one itself. */
export async function newestBackupIn(dir: string): Promise<string | undefined> {
  const names = (await readdir(dir).catch(() => [])).filter((name) => BACKUP_NAME.test(name));
  return names.length > 0 ? join(dir, names.sort().at(-1)!) : undefined;
}
