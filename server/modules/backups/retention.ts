import { readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { INDEX_SUFFIX, PACK_SUFFIX } from './pack.ts';
import { packsIn } from './pack-backup.ts';

// A backup directory, or a zip backup (`.zip`).
const BACKUP_NAME = /^backup-\d{8}\.\d{6}(-\d+)?(\.zip)?$/;
/** Incremental backups' packs, shared by the backups of one directory. */
const SHARED_PACKS = 'packs';

interface BackupInfo {
  /** When it finished: its manifest says so; a zip's is inside it, so its file's time. */
  finished: number;
  /** The backup its metadata is a delta of. */
  basedOn?: string;
}

async function infoOf(path: string): Promise<BackupInfo> {
  if (path.endsWith('.zip'))
    return stat(path).then(
      (stats) => ({ finished: stats.mtimeMs }),
      () => ({ finished: NaN }),
    );
  return readFile(join(path, 'manifest.json'), 'utf8').then(
    (text) => {
      const manifest = JSON.parse(text) as { finishedAt: string; basedOn?: string };
      return { finished: Date.parse(manifest.finishedAt), basedOn: manifest.basedOn };
    },
    () => ({ finished: NaN }),
  );
}

/**
 * Removes the backups in `dir` that finished more than `hours` ago, never `keep` (the one just
 * written): so a failing schedule never removes the last good backup. 0 hours keeps them all.
 * A kept delta keeps every backup its metadata builds on, back to its full dump, however old.
 * Then the shared packs no remaining backup names go (a kept incremental backup needs every
 * pack its manifest lists, however old). Answers how many backups went.
 */
export async function removeExpiredBackups(dir: string, hours: number, keep: string) {
  if (hours <= 0) return 0;
  const cutoff = Date.now() - hours * 3600 * 1000;
  const backups = new Map<string, BackupInfo>();
  for (const name of await readdir(dir))
    if (BACKUP_NAME.test(name)) backups.set(name, await infoOf(join(dir, name)));
  const expired = (name: string, info: BackupInfo) =>
    join(dir, name) !== keep && !Number.isNaN(info.finished) && info.finished < cutoff;
  const needed = new Set<string>();
  for (const [name, info] of backups) {
    if (expired(name, info)) continue;
    // A backup that stays keeps its chain.
    for (let link: string | undefined = name; link && !needed.has(link);) {
      needed.add(link);
      link = backups.get(link)?.basedOn;
    }
  }
  let removed = 0;
  for (const [name, info] of backups) {
    if (needed.has(name) || !expired(name, info)) continue;
    await rm(join(dir, name), { recursive: true, force: true });
    removed += 1;
  }
  if (removed > 0) await removeUnusedPacks(dir);
  return removed;
}

/**
 * Removes the shared packs (`dir/packs`) that no backup in `dir` lists. A backup whose
 * manifest cannot be read keeps every pack: what it needs is unknown. A pack being written
 * has a temp name (`.backup-….pack`) and is never touched.
 */
export async function removeUnusedPacks(dir: string): Promise<number> {
  const needed = new Set<string>();
  for (const name of await readdir(dir)) {
    if (!BACKUP_NAME.test(name) || name.endsWith('.zip')) continue;
    try {
      const manifest = JSON.parse(await readFile(join(dir, name, 'manifest.json'), 'utf8')) as {
        packsDir?: string;
        packs?: string[];
      };
      if (manifest.packsDir === `../${SHARED_PACKS}`)
        for (const pack of manifest.packs ?? []) needed.add(pack);
    } catch {
      return 0;
    }
  }
  const packsDir = join(dir, SHARED_PACKS);
  let removed = 0;
  for (const pack of await packsIn(packsDir)) {
    if (needed.has(pack)) continue;
    // The index first: without it the pack is not complete and nobody merges against it.
    await unlink(join(packsDir, `${pack}${INDEX_SUFFIX}`));
    await unlink(join(packsDir, `${pack}${PACK_SUFFIX}`)).catch(() => undefined);
    removed += 1;
  }
  return removed;
}

/** The newest backup in `dir`, a directory or a zip (by name, which is its time). */
export async function newestBackupIn(dir: string): Promise<string | undefined> {
  const names = (await readdir(dir).catch(() => [])).filter((name) => BACKUP_NAME.test(name));
  return names.length > 0 ? join(dir, names.sort().at(-1)!) : undefined;
}
