import { splitPath } from '../artifacts/paths.ts';
import { isTrashKey } from '../trash/trash-key.ts';
import type { OutboxEvent } from './outbox.ts';

/** A file as an artifact event describes it. */
export interface EventFile {
  path: string;
  sha256: string | null;
  size: number | string | bigint;
}

const fileData = (repoKey: string, file: EventFile) => ({
  repo_key: repoKey,
  path: file.path,
  name: splitPath(file.path).name,
  sha256: file.sha256,
  size: Number(file.size),
});

/**
 * `artifact.deployed` or `artifact.deleted` for files of a repository. What happens inside
 * the trash can is Depot's bookkeeping, reported when the item went in (`deleted`), so it
 * emits nothing of its own.
 */
export function fileEvents(
  eventType: 'deployed' | 'deleted',
  repoKey: string,
  files: EventFile[],
  user: string,
): OutboxEvent[] {
  if (isTrashKey(repoKey)) return [];
  return files.map((file) => ({
    domain: 'artifact',
    eventType,
    data: fileData(repoKey, file),
    user,
    repoKey,
    path: file.path,
  }));
}

/**
 * `artifact.moved` or `artifact.copied` for files that went from one repository to another:
 * `repo_key` and `path` are where each was, `source_repo_path` and `target_repo_path` where
 * it was and where it is now. A restore from the trash can is a move out of it.
 */
export function transferEvents(
  eventType: 'moved' | 'copied',
  from: string,
  to: string,
  files: (EventFile & { newPath: string })[],
  user: string,
): OutboxEvent[] {
  return files.map((file) => ({
    domain: 'artifact',
    eventType,
    data: {
      ...fileData(from, file),
      source_repo_path: `${from}/${file.path}`,
      target_repo_path: `${to}/${file.newPath}`,
    },
    user,
    repoKey: from,
    path: file.path,
    targetRepoKey: to,
  }));
}
