import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { readArchive, type DeployArchiveType, type RawEntry } from '../archives/archive-reader.ts';
import type { BombGuard } from '../archives/bomb-guard.ts';
import { ancestorsOf } from '../artifacts/paths.ts';
import { VIEW_SOURCE_MESSAGES } from './messages.ts';

/** The most entries a listing shows; an archive with more is answered `truncated`. */
export const MAX_LISTED_ENTRIES = 10_000;

export interface ArchiveEntry {
  path: string;
  size: number;
  folder: boolean;
}

/** An entry's name as a path: no leading './' or '/', no trailing '/'; '' for the root. */
export function entryName(raw: string): string {
  return raw.replace(/^(\.?\/)+/, '').replace(/\/+$/, '');
}

const isFile = (entry: RawEntry) => entry.kind === 'file' || entry.kind === 'contiguous-file';

/**
 * Drains an entry that is skipped, through the guard when the archive is one gzip stream: the
 * entries after it can only be reached by inflating it, so it counts against the limits. A
 * zip's entries are compressed one by one and a plain tar's are not, so neither is inflated.
 */
export async function skipEntry(entry: RawEntry, guard: BombGuard): Promise<void> {
  if (entry.compression?.scope !== 'archive' || !isFile(entry)) return;
  const content: Readable = await entry.open();
  await pipeline(
    content,
    guard.meter(entry.name, entry.compression),
    new Writable({ write: (_chunk, _encoding, done) => done() }),
  );
}

/**
 * Every entry of an archive, with the folders its entry paths imply, by path, at most
 * MAX_LISTED_ENTRIES of them: reading stops at the first entry past the limit.
 */
export async function listEntries(
  file: string,
  type: DeployArchiveType,
  guard: BombGuard,
): Promise<{ entries: ArchiveEntry[]; truncated: boolean }> {
  const found = new Map<string, ArchiveEntry>();
  let read = 0;
  let truncated = false;
  await readArchive(
    file,
    type,
    async (entry) => {
      if (++read > MAX_LISTED_ENTRIES) {
        truncated = true;
        return 'stop';
      }
      const path = entryName(entry.name);
      if (path === '') return;
      for (const folder of ancestorsOf(path))
        found.set(folder, { path: folder, size: 0, folder: true });
      const folder = entry.kind === 'directory';
      if (!folder || !found.has(path))
        found.set(path, { path, size: folder ? 0 : entry.size, folder });
      await skipEntry(entry, guard);
    },
    VIEW_SOURCE_MESSAGES.corrupt,
  );
  const entries = [...found.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
  truncated ||= entries.length > MAX_LISTED_ENTRIES;
  return { entries: entries.slice(0, MAX_LISTED_ENTRIES), truncated };
}
