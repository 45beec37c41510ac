import { humanBytes } from '../maintenance/human-bytes.ts';

/** What backups, exports, imports and restores answer (docs/backup.md). */
export const BACKUP_MESSAGES = {
  pathRequired: 'Enter a server path',
  pathOutside: (path: string) =>
    `The path '${path}' is outside the backup directories the administrator allowed (DEPOT_BACKUP_DIRS)`,
  noDirectory: (path: string) => `There is no directory at '${path}'`,
  notFound: (key: string) => `Backup '${key}' could not be found.`,
  noBackupAt: (path: string) => `No Depot backup at '${path}': its manifest.json is missing`,
  unreadable: (path: string) => `The backup at '${path}' cannot be read: its manifest is damaged`,
  layoutOutside: (path: string) =>
    `The backup at '${path}' cannot be read: its manifest names binaries outside the backup`,
  tableNotBackedUp: (table: string) =>
    `Nothing was restored: the backup's metadata names the table '${table}', which no Depot backup holds`,
  otherSchema:
    'This backup was written by a Depot with another database schema: restore it with the same Depot version',
  notEmpty:
    'This Depot has repositories already: a backup restores into an empty Depot only (no repositories)',
  noSpace: (needed: number, free: number) =>
    `Not enough free space for the backup: it needs ${humanBytes(needed)}, the target has ${humanBytes(free)} free`,
  targetFull: 'The backup target ran out of space: nothing of this backup was kept',
  mismatches: (items: string[], more: number) =>
    `Nothing was restored: ${items.length + more} binaries in the backup do not match their SHA-256: ` +
    items.join(', ') +
    (more > 0 ? ` and ${more} more` : ''),
  brokenChain: (backup: string, link: string, why: string) =>
    (link === backup
      ? `Nothing was restored: the backup '${backup}' ${why}`
      : `Nothing was restored: the backup '${backup}' builds on '${link}', which ${why}`) +
    '. Restore an earlier backup whose chain is whole, or one that holds full metadata',
  directoryBusy: 'A backup is already running into this directory',
  zipIsFull:
    'A zip archive holds a full backup: turn off Incremental to write one, or write a directory',
  noneYet: (key: string) => `Backup '${key}' has not written a backup yet: run it first`,
  alreadyRunning: (key: string) => `Backup '${key}' is running already`,
  started: (key: string) => `Backup '${key}' started`,
  masterKeyWarning:
    'This backup holds the master key: whoever reads it can open every secret in it. Keep it apart from the backup, or protect the backup as you would the key.',
  otherMasterKey:
    'The backup was taken with another master key: secrets in it (remote passwords, API keys, tokens) stay sealed until this Depot runs with that key',
} as const;
